import { useEffect, useState } from 'react';
import { useAgentsStore } from '../../stores/agents-store';
import { useConversationsStore } from '../../stores/conversations-store';
import { selectStream, useTurnStreamStore } from '../../stores/turn-stream-store';
import { Composer } from '../composer/Composer';
import { conversationTitle } from '../conversations/conversation-search';
import { openConversation, sendMessage } from './chat-actions';
import { ChatHeader } from './ChatHeader';
import { MessageList } from './MessageList';
import { isTerminal } from './turn-reducer';

/** One conversation: header, the streamed thread, and the composer. */
export function ChatView(props: { agentId: string; sessionId: string }) {
  const { agentId, sessionId } = props;
  const thread = useConversationsStore((s) => s.threads[sessionId]);
  const item = useConversationsStore((s) => s.byAgent[agentId]?.items.find((i) => i.id === sessionId));
  const notice = useConversationsStore((s) => s.notice);
  const stream = useTurnStreamStore(selectStream(sessionId));
  const connection = useTurnStreamStore((s) => s.connections[sessionId]);
  const starters = useAgentsStore((s) => s.configs[agentId]?.starters);
  const [problems, setProblems] = useState<string[]>([]);

  useEffect(() => {
    setProblems([]);
    void openConversation(agentId, sessionId);
  }, [agentId, sessionId]);

  const current = stream.currentTurnId ? stream.turns[stream.currentTurnId] : undefined;
  const running = !!current && !isTerminal(current.estado);
  const empty =
    thread?.status === 'ready' &&
    thread.messages.length === 0 &&
    thread.saltados === 0 &&
    stream.items.length === 0;
  const title = conversationTitle(item ?? { titulo: null }, stream.title);

  return (
    <section className="chat" aria-label="Chat">
      <ChatHeader agentId={agentId} sessionId={sessionId} title={title} />
      {connection?.state === 'reconnecting' ? (
        <p className="banner reconnecting" role="status">
          Connection lost. Reconnecting{connection.attempt > 1 ? ` (attempt ${connection.attempt})` : ''}…
        </p>
      ) : null}
      {connection?.state === 'closed' && connection.error ? (
        <p className="banner error-text" role="alert">
          Live updates stopped: {connection.error.message}
        </p>
      ) : null}
      {notice ? (
        <p className="banner" role="status">
          {notice}
        </p>
      ) : null}
      {thread?.status === 'error' ? (
        <p className="banner error-text" role="alert">
          {thread.error}
        </p>
      ) : null}
      {empty ? (
        <div className="empty-chat">
          <p className="muted">Start the conversation.</p>
          {starters && starters.length > 0 ? (
            <ul className="starters" aria-label="Suggestions">
              {starters.map((starter) => (
                <li key={starter}>
                  <button
                    type="button"
                    className="chip"
                    onClick={() => void sendMessage(agentId, sessionId, { text: starter, attachments: [] })}
                  >
                    {starter}
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : (
        <MessageList
          key={sessionId}
          agentId={agentId}
          sessionId={sessionId}
          thread={thread}
          stream={stream}
        />
      )}
      <Composer
        agentId={agentId}
        sessionId={sessionId}
        running={running}
        problems={problems}
        onProblems={setProblems}
      />
    </section>
  );
}
