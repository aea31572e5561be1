import './composer.css';
import { useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useConversationsStore } from '../../stores/conversations-store';
import { newConversationDraft, selectDraft, useDraftsStore } from '../../stores/drafts-store';
import { sendBlockedReason, useConnectivityStore } from '../../stores/connectivity-store';
import { useUiStore } from '../../stores/ui-store';
import { workingElsewhere } from '../../ui/focus-elsewhere';
import { sendMessage } from './chat-actions';

/**
 * The message box of an agent with no conversation open, so the first screen is ready to type into, and
 * of a new conversation while the server makes it (Mod+N): what is typed is kept as that conversation's
 * draft (`newConversationDraft`), which its composer takes over. Sending makes the conversation (none is
 * made for a person who only looks) and sends the text there.
 */
export function WelcomeMessageBox(props: { agentId: string; agentName: string }) {
  const key = newConversationDraft(props.agentId);
  const text = useDraftsStore(selectDraft(key)).text;
  const [sending, setSending] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const startProblem = useConversationsStore((s) =>
    s.starting?.agentId === props.agentId ? s.starting.problem : '',
  );
  const online = useConnectivityStore((s) => s.online);
  const input = useRef<HTMLTextAreaElement>(null);

  // Shift+Escape, and Escape on an archive's Undo, ask for the message box like the composer's; in the
  // commit that shows it, so no key pressed right after Mod+N goes elsewhere.
  const composerFocus = useUiStore((s) => s.composerFocus);
  const focusAsked = useRef(composerFocus);
  useLayoutEffect(() => {
    const asked = focusAsked.current !== composerFocus;
    focusAsked.current = composerFocus;
    if (asked || !workingElsewhere()) input.current?.focus();
  }, [props.agentId, composerFocus]);
  // Going away as the new conversation's composer takes over: the caret the person put in the text goes with it.
  useLayoutEffect(() => {
    const box = input.current;
    return () => {
      const typing = !!box && document.activeElement === box;
      useDraftsStore
        .getState()
        .keepCaret(key, typing ? { start: box.selectionStart, end: box.selectionEnd } : undefined);
    };
  }, [key]);

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    const message = text.trim();
    if (!message || sending) return;
    const blocked = sendBlockedReason(online);
    if (blocked) return setProblems([blocked]);
    setSending(true);
    // Sent, it leaves the draft: what is typed while it goes is the next message.
    useDraftsStore.getState().clear(key);
    const sessionId = await useConversationsStore.getState().create(props.agentId);
    if (!sessionId) {
      setSending(false);
      const typed = selectDraft(key)(useDraftsStore.getState()).text;
      return useDraftsStore.getState().setText(key, typed ? `${message}\n${typed}` : message);
    }
    const sent = await sendMessage(props.agentId, sessionId, { content: message, attachments: [] });
    setSending(false);
    setProblems(sent.problems);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) void send(event);
  };

  return (
    <form className="welcome-box" onSubmit={(event) => void send(event)}>
      {problems.length > 0 || startProblem ? (
        <ul className="composer-problems" role="alert">
          {[
            ...(startProblem ? [`The conversation could not be started: ${startProblem}`] : []),
            ...problems,
          ].map((problem, i) => (
            <li key={i}>{problem}</li>
          ))}
        </ul>
      ) : null}
      <div className="composer-row">
        <textarea
          ref={input}
          className="composer-input"
          aria-label="Message"
          placeholder={`Message ${props.agentName}`}
          rows={2}
          value={text}
          onChange={(event) => useDraftsStore.getState().setText(key, event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="primary" disabled={sending || text.trim() === ''}>
          Send
        </button>
      </div>
    </form>
  );
}
