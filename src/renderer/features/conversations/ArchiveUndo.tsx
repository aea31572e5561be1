import { useEffect, useRef } from 'react';
import { useArchiveStore } from '../../stores/archive-store';
import { showDirectionControls } from '../../model/bidi-controls';
import { useUiStore } from '../../stores/ui-store';
import './conversations.css';

/** "Archived …  Undo" for a few seconds after an archive, and why one failed. */
export function ArchiveUndo() {
  const pending = useArchiveStore((s) => s.pending);
  const error = useArchiveStore((s) => s.error);
  const undo = useRef<HTMLButtonElement>(null);

  // The dialog and its opener are gone with the conversation: the keyboard lands on Undo (Enter undoes,
  // Escape goes on to the message box) rather than on the page body.
  const pendingId = pending?.sessionId;
  useEffect(() => {
    if (pendingId) undo.current?.focus();
  }, [pendingId]);

  return (
    <div className="toast-area">
      {pending ? (
        <div className="toast" role="status">
          <span>Archived “{showDirectionControls(pending.title)}”.</span>
          <button
            ref={undo}
            type="button"
            onClick={() => useArchiveStore.getState().undo()}
            onKeyDown={(event) => {
              if (event.key === 'Escape') useUiStore.getState().focusComposer();
            }}
          >
            Undo
          </button>
        </div>
      ) : null}
      {error ? (
        <div className="toast error-text" role="alert">
          <span>{error}</span>
          <button type="button" onClick={() => useArchiveStore.getState().dismissError()}>
            Dismiss
          </button>
        </div>
      ) : null}
    </div>
  );
}
