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
        props.onSave();
      }}
    >
      {props.children}
      {props.problem ? (
        <p className="field-problem" role="alert">
          {props.problem}
        </p>
      ) : null}
      <div className="studio-actions">
        <button type="submit" className="primary" disabled={!props.dirty || props.saving}>
          {props.saving ? 'Saving…' : props.saveLabel}
        </button>
        <button type="button" disabled={!props.dirty || props.saving} onClick={props.onDiscard}>
          Discard changes
        </button>
      </div>
    </form>
  );
}
