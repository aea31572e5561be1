import './composer.css';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useConversationsStore } from '../../stores/conversations-store';
import { sendBlockedReason, useConnectivityStore } from '../../stores/connectivity-store';
import { useUiStore } from '../../stores/ui-store';
import { sendMessage } from './chat-actions';

/**
 * The message box of an agent with no conversation open, so the first screen is ready to type into.
 * Sending makes the conversation (none is made for a person who only looks) and sends the text there;
 * the conversation's own composer takes over from then on.
 */
export function WelcomeMessageBox(props: { agentId: string; agentName: string }) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const online = useConnectivityStore((s) => s.online);
  const input = useRef<HTMLTextAreaElement>(null);

  // Shift+Escape, and Escape on an archive's Undo, ask for the message box like the composer's.
  const composerFocus = useUiStore((s) => s.composerFocus);
  useEffect(() => input.current?.focus(), [props.agentId, composerFocus]);

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    const message = text.trim();
    if (!message || sending) return;
    const blocked = sendBlockedReason(online);
    if (blocked) return setProblems([blocked]);
    setSending(true);
    const sessionId = await useConversationsStore.getState().create(props.agentId);
    if (!sessionId) {
      setSending(false);
      return setProblems(['The conversation could not be started. Try again.']);
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
      {problems.length > 0 ? (
        <ul className="composer-problems" role="alert">
          {problems.map((problem, i) => (
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
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={sending}
        />
        <button type="submit" className="primary" disabled={sending || text.trim() === ''}>
          Send
        </button>
      </div>
    </form>
  );
}
