import { NO_CONVERSATIONS_WORDS } from '../../error-words';
import { useEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAgentsStore } from '../../stores/agents-store';
import { useConversationsStore } from '../../stores/conversations-store';
import { startConversation } from './show-conversation';
import { ConversationRow } from './ConversationRow';
import { ArchivedConversations } from './ArchivedConversations';
import { useTurnStreamStore } from '../../stores/turn-stream-store';
import { useUiStore } from '../../stores/ui-store';
import { relativeTime } from '../../ui/relative-time';
import { useNow } from '../../ui/use-now';
import { conversationTitle, draftsFirst, searchConversations } from '../../model/conversation-search';
import { isEmptyConversation } from '../../stores/empty-conversation';
import { useWaitingForPerson } from './conversation-state';

/** The selected agent's conversations: live titles, a badge where the last reply needs a look, search. */
export function ConversationList({ agentId }: { agentId: string }) {
  const entry = useConversationsStore((s) => s.byAgent[agentId]);
  const selectedId = useConversationsStore((s) => s.selectedId);
  const threads = useConversationsStore((s) => s.threads);
  // Only the live titles: the list must not re-render on every streamed chunk.
  const liveTitles = useTurnStreamStore(
    useShallow((s) =>
      Object.fromEntries(Object.entries(s.streams).map(([id, stream]) => [id, stream.title])),
    ),
  );
  const query = useUiStore((s) => s.query);
  const searchFocus = useUiStore((s) => s.searchFocus);
  const engine = useAgentsStore((s) => s.noMachine[agentId]);
  const now = useNow(30_000);
  const waiting = useWaitingForPerson();
  const search = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (searchFocus > 0) search.current?.focus();
  }, [searchFocus]);

  // A conversation nothing was said in yet (+ New's) leads the list, whatever date the server gave it.
  const shown = useMemo(
    () =>
      draftsFirst(searchConversations(entry?.items ?? [], query, threads, liveTitles), (item) =>
        isEmptyConversation(item, threads[item.id]),
      ),
    [entry?.items, query, threads, liveTitles],
  );

  if (engine !== undefined) {
    return (
      <section className="conversations" aria-label="Conversations">
        <p className="explain" role="note">
          {NO_CONVERSATIONS_WORDS} It still answers on its other channels.
        </p>
      </section>
    );
  }

  return (
    <section className="conversations" aria-label="Conversations">
      <div className="conversations-head">
        <h2 className="section-title">Conversations</h2>
        <button
          type="button"
          className="primary small"
          aria-label="Start a new conversation"
          title="New conversation (Ctrl/Cmd+Shift+O)"
          onClick={() => startConversation(agentId)}
        >
          + New
        </button>
      </div>
      <input
        ref={search}
        type="search"
        className="search"
        aria-label="Search conversations"
        placeholder="Search conversations"
        value={query}
        onChange={(e) => useUiStore.getState().setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') useUiStore.getState().setQuery('');
        }}
      />
      {entry?.status === 'loading' && entry.items.length === 0 ? (
        <p className="muted">Loading conversations…</p>
      ) : null}
      {entry?.error ? (
        <p className="error-text" role="alert">
          {entry.error}
        </p>
      ) : null}
      {entry?.status === 'ready' && shown.length === 0 ? (
        <p className="muted">{query ? 'No conversation matches.' : 'No conversations yet.'}</p>
      ) : null}
      <ul
        className="conversation-list"
        aria-label="Conversation list"
        aria-busy={entry?.status !== 'ready' && !entry?.error}
      >
        {shown.map((item) => (
          <ConversationRow
            key={item.id}
            agentId={agentId}
            item={item}
            title={conversationTitle(item, liveTitles[item.id])}
            selected={item.id === selectedId}
            waiting={waiting.has(item.id)}
            when={relativeTime(item.lastTurn?.at ?? item.updatedAt, now)}
          />
        ))}
      </ul>
      <ArchivedConversations agentId={agentId} />
    </section>
  );
}
