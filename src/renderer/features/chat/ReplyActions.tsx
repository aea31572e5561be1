import { useState } from 'react';
import './message-actions.css';

const RETRY_TITLE = 'Send your message again for a new reply';
const BRANCH_TITLE = 'Start a new conversation with the history up to this reply';

/** Asked for when the pointer or the focus reaches Copy text, so the click rarely waits for it. */
const loadPlainText = () => import('../../../shared/markdown/plain-text');

/**
 * The actions under a reply, shown on hover and on keyboard focus (always on the last reply): copy it
 * as Markdown or as plain text, send the person's message again (the last reply only), and branch a
 * new conversation from here (where the server offers it).
 */
export function ReplyActions(props: {
  text: string;
  always: boolean;
  onRetry?: (() => Promise<string>) | undefined;
  onBranch?: (() => Promise<string>) | undefined;
}) {
  const { note, setNote, busy, run } = useAction();
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setNote('Copied.');
    } catch {
      setNote('Copying was refused by the system. Select the text and copy it instead.');
    }
  };
  // The Markdown reader is a chunk of its own (loadPlainText); the click's activation outlasts its load.
  const copyAsPlainText = async (markdown: string) => {
    try {
      const { markdownAsPlainText } = await loadPlainText();
      await copy(markdownAsPlainText(markdown));
    } catch {
      setNote('Copying as plain text failed. Copy the Markdown instead.');
    }
  };
  return (
    <div
      className={`message-actions${props.always ? ' always' : ''}`}
      aria-label="Reply actions"
      role="group"
    >
      {props.text ? (
        <>
          <button
            type="button"
            title="Copy with its Markdown formatting"
            onClick={() => void copy(props.text)}
          >
            Copy Markdown
          </button>
          <button
            type="button"
            title="Copy as plain text, without formatting marks"
            onPointerEnter={() => void loadPlainText().catch(() => undefined)}
            onFocus={() => void loadPlainText().catch(() => undefined)}
            onClick={() => void copyAsPlainText(props.text)}
          >
            Copy text
          </button>
        </>
      ) : null}
      {props.onRetry ? (
        <button type="button" disabled={busy} title={RETRY_TITLE} onClick={() => void run(props.onRetry!)}>
          Retry
        </button>
      ) : null}
      {props.onBranch ? (
        <button type="button" disabled={busy} title={BRANCH_TITLE} onClick={() => void run(props.onBranch!)}>
          Branch
        </button>
      ) : null}
      <span className="action-note" role="status">
        {note}
      </span>
    </div>
  );
}

/** Retry beside the reason a turn failed or stopped. */
export function RetryBeside(props: { onRetry: () => Promise<string> }) {
  const { note, busy, run } = useAction();
  return (
    <>
      <button
        type="button"
        className="retry-beside"
        disabled={busy}
        title={RETRY_TITLE}
        onClick={() => void run(props.onRetry)}
      >
        Retry
      </button>
      {note ? (
        <span className="action-note" role="status">
          {note}
        </span>
      ) : null}
    </>
  );
}

/** An action that answers '' or a sentence, with its note and a busy flag while it runs. */
function useAction() {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<string>) => {
    setBusy(true);
    setNote(await action());
    setBusy(false);
  };
  return { note, setNote, busy, run };
}
