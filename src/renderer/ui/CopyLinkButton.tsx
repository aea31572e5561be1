import { useState } from 'react';
import { desk } from '../desk';
import { errorWords } from '../error-words';

/** Copies the agentdesk:// link of an agent or a conversation, and says so. */
export function CopyLinkButton(props: { agentId: string; sessionId?: string; label: string }) {
  const [note, setNote] = useState('');
  const copy = async () => {
    const link = await desk().deepLinkFor({
      agentId: props.agentId,
      ...(props.sessionId ? { sessionId: props.sessionId } : {}),
    });
    if (!link.ok) return setNote(errorWords(link.error));
    try {
      await navigator.clipboard.writeText(link.value);
      setNote('Link copied.');
    } catch {
      setNote(`Copy this link: ${link.value}`);
    }
  };
  return (
    <>
      <button type="button" onClick={() => void copy()}>
        {props.label}
      </button>
      {note ? (
        <span className="muted small-text" role="status">
          {note}
        </span>
      ) : null}
    </>
  );
}
