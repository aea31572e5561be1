import type { ReactNode } from 'react';

/** A section's form: its fields, what stopped the last save, and Save / Discard (enabled only with edits). */
export function SectionForm(props: {
  saveLabel: string;
  dirty: boolean;
  saving: boolean;
  problem?: string | undefined;
  onSave(): void;
  onDiscard(): void;
  children: ReactNode;
}) {
  return (
    <form
      className="studio-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (props.dirty && !props.saving) props.onSave();
      }}
    >
      {props.children}
      {props.problem ? (
        <p className="field-problem" role="alert">
          {props.problem}
        </p>
      ) : null}
      <SaveDiscard {...props} submits />
    </form>
  );
}

/**
 * Save and Discard, enabled only with edits: how every section that edits ends. Inside SectionForm Save
 * submits the form; a section that holds forms of its own (the MCP list) gets it as a plain button.
 */
export function SaveDiscard(props: {
  saveLabel: string;
  dirty: boolean;
  saving: boolean;
  submits?: boolean;
  onSave(): void;
  onDiscard(): void;
}) {
  const idle = !props.dirty || props.saving;
  // Off by aria-disabled, not disabled: a button that turns disabled under the keyboard focus (once saved
  // or discarded) drops that focus to the page body.
  return (
    <div className="studio-actions">
      <button
        type={props.submits ? 'submit' : 'button'}
        className="primary"
        aria-disabled={idle || undefined}
        onClick={(event) => {
          if (idle) event.preventDefault();
          else if (!props.submits) props.onSave();
        }}
      >
        {props.saving ? 'Saving…' : props.saveLabel}
      </button>
      <button type="button" aria-disabled={idle || undefined} onClick={idle ? undefined : props.onDiscard}>
        Discard changes
      </button>
    </div>
  );
}
