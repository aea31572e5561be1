import './chat.css';
import { useEffect, useState } from 'react';
import { useConversationsStore, type Thread } from '../../stores/conversations-store';
import { selectStream, useTurnStreamStore } from '../../stores/turn-stream-store';
import { Composer } from './Composer';
import { conversationTitle } from '../../model/conversation-search';
import { openConversation } from './chat-actions';
import { AgentWelcome } from './AgentWelcome';
import { ChatHeader } from './ChatHeader';
import { MessageList } from './MessageList';
import { warmMarkdownRenderer } from './MarkdownBlock';
import { OfflineBanner } from './OfflineBanner';
import { isTerminal } from '../../model/turn-reducer';
import type { ComposerToolsSlot } from '../../ui/composer-slot';

/**
 * One conversation: header, the streamed thread, and the composer. `compact` (the quick window) leaves out
 * the header and the agent's welcome: its own line names the agent.
 */
export function ChatView(props: {
  agentId: string;
  sessionId: string;
  composerTools?: ComposerToolsSlot;
  compact?: boolean;
}) {
  const { agentId, sessionId } = props;
  const thread = useConversationsStore((s) => s.threads[sessionId]);
  const item = useConversationsStore((s) => s.byAgent[agentId]?.items.find((i) => i.id === sessionId));
  const notice = useConversationsStore((s) => s.notice);
  // Only what the frame around the thread needs: a streamed batch re-renders the thread, not the header and composer.
  const running = useTurnStreamStore((s) => {
    const stream = selectStream(sessionId)(s);
    const current = stream.currentTurnId ? stream.turns[stream.currentTurnId] : undefined;
    return !!current && !isTerminal(current.state);
  });
  const hasLiveItems = useTurnStreamStore((s) => selectStream(sessionId)(s).items.length > 0);
  const streamTitle = useTurnStreamStore((s) => selectStream(sessionId)(s).title);
  const connection = useTurnStreamStore((s) => s.connections[sessionId]);
  const [problems, setProblems] = useState<string[]>([]);

  useEffect(() => {
    setProblems([]);
    void openConversation(agentId, sessionId);
  }, [agentId, sessionId]);
  // A reply may start any moment now: its Markdown renderer should be here before its first chunk.
  useEffect(warmMarkdownRenderer, []);

  const empty =
    thread?.status === 'ready' && thread.messages.length === 0 && thread.skipped === 0 && !hasLiveItems;
  const title = conversationTitle(item ?? { title: null }, streamTitle);

  return (
    <section className="chat" aria-label="Chat">
      {props.compact ? null : <ChatHeader agentId={agentId} sessionId={sessionId} title={title} />}
      <OfflineBanner readOnly={thread?.offline ?? false} />
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
      {empty && !props.compact ? (
        <AgentWelcome agentId={agentId} sessionId={sessionId} />
      ) : (
        <LiveMessageList key={sessionId} agentId={agentId} sessionId={sessionId} thread={thread} />
      )}
      <Composer
        tools={props.composerTools}
        agentId={agentId}
        sessionId={sessionId}
        running={running}
        problems={problems}
        onProblems={setProblems}
      />
    </section>
  );
}

/** The thread with its live stream: the one part of the chat that changes with every streamed batch. */
function LiveMessageList(props: { agentId: string; sessionId: string; thread: Thread | undefined }) {
  const stream = useTurnStreamStore(selectStream(props.sessionId));
  return <MessageList {...props} stream={stream} />;
}
