import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { AttachmentMeta } from '../../../shared/bridge';
import type { UserItemMode } from '../../model/turn-reducer';
import { ReplyMarkdown } from './ReplyMarkdown';
import { RetryBeside } from './ReplyActions';
import { useServerExtensions } from '../../ui/use-server-offers';
import { redoWay } from './message-actions';
import './message-actions.css';

const modeWords: Record<UserItemMode, string> = {
  sending: 'Sending…',
  sent: '',
  injected: 'Added to the running reply',
  replacing: 'Replaced the previous reply',
  failed: 'Not sent',
};

/**
 * One message of the person: its Markdown rendered by the same safe renderer as replies (never raw
 * HTML), what was attached (images as small pictures), its sending state, and, when it is the last
 * one, Edit, which sends the edited text as a new message (the API only appends).
 */
export const UserMessageView = memo(function UserMessageView(props: {
  text: string;
  attachments?: readonly AttachmentMeta[] | undefined;
  mode?: UserItemMode;
  error?: string | undefined;
  /** Sends the edited text; given only for the person's last message while nothing runs. */
  onEdit?: ((text: string) => Promise<string>) | undefined;
  /** Sends it again; given for a message that was not sent. */
  onRetry?: (() => Promise<string>) | undefined;
}) {
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const mode = props.mode ?? 'sent';
  const close = () => {
    setEditing(false);
    // Back where the person was, once the button is there again.
    requestAnimationFrame(() => editButton.current?.focus());
  };
  return (
    <article className={`message user mode-${mode}`} aria-label="Your message">
      {editing && props.onEdit ? (
        <EditBox text={props.text} onSend={props.onEdit} onClose={close} />
      ) : (
        <div className="user-text">
          <ReplyMarkdown text={props.text} />
        </div>
      )}
      <SentAttachments attachments={props.attachments} />
      {modeWords[mode] ? <p className="user-mode">{modeWords[mode]}</p> : null}
      {props.error ? (
        <div className="reason-row">
          <p className="error-text" role="alert">
            {props.error}
          </p>
          {props.onRetry ? <RetryBeside onRetry={props.onRetry} /> : null}
        </div>
      ) : null}
      {props.onEdit && !editing ? (
        <div className="message-actions user-actions" role="group" aria-label="Message actions">
          <button
            ref={editButton}
            type="button"
            title="Change this message and send it again"
            onClick={() => setEditing(true)}
          >
            Edit
          </button>
        </div>
      ) : null}
    </article>
  );
});

/** The message in a box: Enter sends the edited text as a new message, Escape leaves it as it was. */
function EditBox(props: { text: string; onSend(text: string): Promise<string>; onClose(): void }) {
  const [text, setText] = useState(props.text);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  // How Retry and Edit work on this server, for the words under the box.
  const way = redoWay(useServerExtensions());
  useEffect(() => {
    const element = box.current;
    element?.focus();
    element?.setSelectionRange(element.value.length, element.value.length);
  }, []);
  const empty = text.trim() === '';
  const send = async () => {
    if (empty || busy) return;
    setBusy(true);
    const said = await props.onSend(text.trim());
    setBusy(false);
    if (said) setNote(said);
    else props.onClose();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      props.onClose();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };
  return (
    <div className="edit-box">
      <textarea
        ref={box}
        aria-label="Edit your message"
        value={text}
        rows={Math.min(8, Math.max(2, text.split('\n').length))}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="edit-buttons">
        <button type="button" onClick={props.onClose}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={empty || busy} onClick={() => void send()}>
          Send
        </button>
      </div>
      <p className="muted small-text">
        {editWords[way]}
        {note ? ` ${note}` : ''}
      </p>
    </div>
  );
}

const editWords = {
  rewind: 'Replaces this message and its reply; the earlier version stays readable (‹ ›).',
  branch: 'Goes on in a new conversation from before this message; the two are linked as versions.',
  append: 'Sent as a new message; the earlier one and its reply stay above.',
};

/** Names, types and sizes of what was sent; images show their small picture. */
function SentAttachments({ attachments }: { attachments?: readonly AttachmentMeta[] | undefined }) {
  if (!attachments?.length) return null;
  return (
    <ul className="sent-attachments" aria-label="Attachments">
      {attachments.map((a, i) => (
        <li key={i} title={`${a.mimeType}, ${a.size} bytes`}>
          {a.thumbnail?.startsWith('data:image/') ? (
            <img className="attachment-thumbnail" src={a.thumbnail} alt="" width={48} height={48} />
          ) : null}
          {a.name}
        </li>
      ))}
    </ul>
  );
}
