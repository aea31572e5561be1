import './composer.css';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import {
  newConversationDraft,
  selectDraft,
  useDraftsStore,
  type CarriedCaret,
} from '../../stores/drafts-store';
import { useConversationsStore } from '../../stores/conversations-store';
import { useUiStore } from '../../stores/ui-store';
import { sendBlockedReason, useConnectivityStore } from '../../stores/connectivity-store';
import { cancelTurn, sendMessage } from './chat-actions';
import {
  admitFiles,
  maxAttachments,
  megabytes,
  sendProblems,
  type DraftAttachment,
} from '../../model/attachment-limits';
import { readFiles } from '../../ui/read-files';
import { useFileIntake } from '../../ui/use-file-intake';
import { workingElsewhere } from '../../ui/focus-elsewhere';
import type { ComposerToolsSlot } from '../../ui/composer-slot';

/** Adds files to a conversation's draft, saying plainly which ones do not fit. */
export async function attachFiles(sessionId: string, files: readonly File[]): Promise<string[]> {
  const draft = selectDraft(sessionId)(useDraftsStore.getState());
  const { accepted, problems } = admitFiles(draft.attachments, files);
  useDraftsStore.getState().addAttachments(sessionId, await readFiles(accepted));
  return problems;
}

/**
 * Where the person writes. Enter sends, Shift+Enter starts a new line. Files
 * come by picker, paste, or a drop anywhere on the window.
 */
export function Composer(props: {
  agentId: string;
  sessionId: string;
  running: boolean;
  problems: string[];
  onProblems(problems: string[]): void;
  /** Dictation and the library, handed in by the workspace. */
  tools?: ComposerToolsSlot | undefined;
}) {
  const { agentId, sessionId, running } = props;
  const draft = useDraftsStore(selectDraft(sessionId));
  const composerFocus = useUiStore((s) => s.composerFocus);
  const input = useRef<HTMLTextAreaElement>(null);
  const online = useConnectivityStore((s) => s.online);
  const [cancelNote, setCancelNote] = useState('');

  // In the commit that shows the box, so no key pressed meanwhile goes elsewhere. A conversation just made
  // takes what was typed while the server made it, and one the app opened by itself at start what was typed
  // into the welcome's box before the list came; the caret goes after it, or where the person left it.
  const carried = useRef<CarriedCaret | undefined>(undefined);
  useLayoutEffect(() => {
    const { startedId, openedByApp } = useConversationsStore.getState();
    if (startedId === sessionId || openedByApp === sessionId)
      carried.current = useDraftsStore.getState().carry(newConversationDraft(agentId), sessionId);
  }, [agentId, sessionId]);
  const focusAsked = useRef(composerFocus);
  useLayoutEffect(() => {
    const box = input.current;
    const asked = focusAsked.current !== composerFocus;
    focusAsked.current = composerFocus;
    if (!box || (!asked && workingElsewhere())) return;
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  }, [sessionId, composerFocus]);
  // The caret the person left in the box shown while the server made the conversation (a slow host answers
  // after they moved it), once the carried words are in this box.
  useLayoutEffect(() => {
    const box = input.current;
    const caret = carried.current;
    if (!box || !caret || box.value !== caret.text) return;
    carried.current = undefined;
    box.setSelectionRange(caret.start, caret.end);
  }, [draft.text]);
  // Stop goes away once the reply has stopped: the focus it had goes to the message box, not the page body.
  const stopped = useRef(false);
  useEffect(() => {
    if (running || !stopped.current) return;
    stopped.current = false;
    if (document.activeElement === document.body) input.current?.focus();
  }, [running]);

  const nothingToSend = !draft.text.trim() && draft.attachments.length === 0;

  const send = async () => {
    const text = draft.text.trim();
    if (!text && draft.attachments.length === 0) return;
    const blocked = sendBlockedReason(online);
    if (blocked) return props.onProblems([blocked]);
    const refused = sendProblems(draft.attachments);
    if (refused.length > 0) return props.onProblems(refused);
    // Sent, it leaves the box at once: what is typed while the server answers is the next message. A send
    // the server refuses stays in the conversation as "Not sent", with Retry, so nothing is lost.
    useDraftsStore.getState().clear(sessionId);
    const { problems } = await sendMessage(agentId, sessionId, {
      content: text,
      attachments: draft.attachments,
    });
    props.onProblems(problems);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // A question of the agent is waiting: Shift+Tab goes straight to its first answer (issue 39, item 7).
    if (event.key === 'Tab' && event.shiftKey && focusOpenPermission()) {
      event.preventDefault();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  const { picker, openPicker, onPaste } = useFileIntake(
    (files) => void attachFiles(sessionId, files).then(props.onProblems),
    'Choose files to attach',
  );

  return (
    <div className="composer">
      {props.problems.length > 0 ? (
        <ul className="composer-problems" role="alert">
          {props.problems.map((problem, i) => (
            <li key={i}>{problem}</li>
          ))}
        </ul>
      ) : null}
      {draft.attachments.length > 0 ? (
        <ul className="attachments" aria-label="Attachments to send">
          {draft.attachments.map((attachment) => (
            <AttachmentChip key={attachment.id} attachment={attachment} sessionId={sessionId} />
          ))}
        </ul>
      ) : null}
      <div className="composer-row">
        <button
          type="button"
          className="icon"
          aria-label="Attach files"
          title={`Attach files (up to ${maxAttachments})`}
          onClick={openPicker}
        >
          +
        </button>
        {picker}
        {props.tools?.({ sessionId, input, onProblems: props.onProblems })}
        <textarea
          ref={input}
          id="message-box"
          className="composer-input"
          aria-label="Message"
          placeholder={running ? 'Add to the running reply…' : 'Write a message'}
          rows={1}
          value={draft.text}
          onChange={(event) => useDraftsStore.getState().setText(sessionId, event.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        {running ? (
          <button
            type="button"
            className="danger"
            onClick={() => {
              stopped.current = true;
              void cancelTurn(agentId, sessionId).then(setCancelNote);
            }}
          >
            Stop
          </button>
        ) : null}
        <button
          type="button"
          className="primary"
          // Nothing to send: the button says so by being off, not by doing nothing.
          disabled={!online || nothingToSend}
          title={
            sendBlockedReason(online) ??
            (nothingToSend ? 'Write a message or attach a file first' : undefined)
          }
          onClick={() => void send()}
        >
          Send
        </button>
      </div>
      {cancelNote ? <p className="muted">{cancelNote}</p> : null}
      {online ? null : <p className="muted send-blocked">{sendBlockedReason(online)}</p>}
    </div>
  );
}

function AttachmentChip({ attachment, sessionId }: { attachment: DraftAttachment; sessionId: string }) {
  const image = attachment.mimeType.startsWith('image/');
  return (
    <li className="attachment">
      {image ? (
        <img
          src={`data:${attachment.mimeType};base64,${attachment.data}`}
          alt={`Preview of ${attachment.name}`}
        />
      ) : (
        <span className="file-icon" aria-hidden="true">
          {(attachment.name.split('.').pop() ?? 'file').slice(0, 4).toUpperCase()}
        </span>
      )}
      <span className="attachment-name">{attachment.name}</span>
      <span className="attachment-size">{megabytes(attachment.size)}</span>
      <button
        type="button"
        className="icon"
        aria-label={`Remove ${attachment.name}`}
        onClick={() => useDraftsStore.getState().removeAttachment(sessionId, attachment.id)}
      >
        ×
      </button>
    </li>
  );
}

/** Focuses the first answer of the last open permission request on screen; false when none is open. */
function focusOpenPermission(): boolean {
  const answers = document.querySelectorAll<HTMLButtonElement>(
    '.permission-card.open .permission-options button',
  );
  const first = answers[answers.length - 1]?.closest('.permission-options')?.querySelector('button');
  if (!first || first.disabled) return false;
  first.focus();
  return true;
}
