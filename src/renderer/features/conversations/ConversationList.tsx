import { NO_CONVERSATIONS_WORDS } from '../../error-words';
import { useEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ConversationSummary } from '../../../shared/api';
import { useAgentsStore } from '../../stores/agents-store';
import { useConversationsStore } from '../../stores/conversations-store';
import { showConversation, startConversation } from './show-conversation';
import { ArchivedConversations } from './ArchivedConversations';
import { useTurnStreamStore } from '../../stores/turn-stream-store';
import { useUiStore } from '../../stores/ui-store';
import { relativeTime } from '../../ui/relative-time';
import { useNow } from '../../ui/use-now';
import { conversationTitle, searchConversations } from '../../model/conversation-search';
import { showDirectionControls } from '../../model/bidi-controls';
import { conversationState, conversationStateWords, useWaitingForPerson } from './conversation-state';

/** The selected agent's conversations: live titles, last-turn badge, relative time, search. */
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

  const shown = useMemo(
    () => searchConversations(entry?.items ?? [], query, threads, liveTitles),
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

function ConversationRow(props: {
  item: ConversationSummary;
  title: string;
  selected: boolean;
  waiting: boolean;
  when: string;
}) {
  const state = conversationState(props.item.lastTurn?.state, props.waiting);
  return (
    <li>
      <button
        type="button"
        className={`conversation ${props.selected ? 'selected' : ''}`}
        aria-current={props.selected ? 'true' : undefined}
        onClick={() => showConversation(() => useConversationsStore.getState().select(props.item.id))}
      >
        <span className="conversation-title">{showDirectionControls(props.title)}</span>
        <span className="conversation-meta">
          {state ? (
            <span
              className={`badge badge-${state}`}
              aria-label={`Last reply: ${conversationStateWords[state] ?? state}`}
            >
              {conversationStateWords[state] ?? state}
            </span>
          ) : null}
          <span className="when">{props.when}</span>
        </span>
      </button>
    </li>
  );
}
