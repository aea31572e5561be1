import { useEffect, useState } from 'react';
import type { DeepLinkPlace } from '../../shared/bridge';
import { desk } from '../desk';
import { errorWords } from '../error-words';

/** Copies the agentdesk:// link of an agent or a conversation; returns what to tell the person. */
export async function copyDeepLink(place: DeepLinkPlace): Promise<string> {
  const link = await desk().deepLinkFor(place);
  if (!link.ok) return errorWords(link.error);
  try {
    await navigator.clipboard.writeText(link.value);
    return 'Link copied.';
  } catch {
    return `Copy this link: ${link.value}`;
  }
}

/** How long "Link copied." stays under the button. */
export const NOTE_MS = 4000;

/** Copies the agentdesk:// link of an agent or a conversation, and says so for a few seconds. */
export function CopyLinkButton(props: { agentId: string; sessionId?: string; label: string }) {
  const [note, setNote] = useState('');
  // The note says what just happened, then leaves: a link copied minutes ago is no news.
  useEffect(() => {
    if (!note) return;
    const timer = setTimeout(() => setNote(''), NOTE_MS);
    return () => clearTimeout(timer);
  }, [note]);
  const copy = async () => {
    setNote(
      await copyDeepLink({
        agentId: props.agentId,
        ...(props.sessionId ? { sessionId: props.sessionId } : {}),
      }),
    );
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
