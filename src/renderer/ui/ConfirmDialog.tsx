import { useEffect, useRef, type ReactNode } from 'react';
import { useReturnFocus } from './use-return-focus';

/** A modal question with a clear confirm and cancel; Escape cancels; focus goes back to the opener. */
export function ConfirmDialog(props: {
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
  danger?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useReturnFocus();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-label={props.title}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          props.onConfirm();
        }}
      >
        <h2>{props.title}</h2>
        {props.children}
        <div className="dialog-actions">
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
          <button type="submit" className={props.danger ? 'danger' : 'primary'}>
            {props.confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
