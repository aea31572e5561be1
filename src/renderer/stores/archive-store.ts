import { create } from 'zustand';
import type { ArchivedConversationSummary, ConversationSummary } from '../../shared/api';
import { desk } from '../desk';
import { errorWords } from '../error-words';
import { conversationTitle } from '../model/conversation-search';
import { useConversationsStore } from './conversations-store';

/**
 * How long an archive waits for Undo before it is sent. The spec's DELETE has no way back, so the
 * request is held instead: it works against any server, and Undo loses nothing (not the public link,
 * not the scheduled turns, which the archive would drop).
 */
export const ARCHIVE_UNDO_MS = 6000;

interface Held {
  agentId: string;
  item: ConversationSummary;
  title: string;
  timer: ReturnType<typeof setTimeout>;
}

interface ArchiveStore {
  /** The archive waiting for Undo, by its conversation's title. */
  pending: { sessionId: string; title: string } | null;
  /** Why the last archive could not be done (the conversation is back in the list). */
  error: string;
  archive(agentId: string, sessionId: string): void;
  undo(): void;
  /** Sends the held archive now (another archive, leaving the page, signing out). */
  flush(): Promise<void>;
  dismissError(): void;
  /** Archived conversations of one agent, where the server offers them (our extension). */
  archived: {
    agentId: string;
    items: ArchivedConversationSummary[];
    status: 'loading' | 'ready' | 'error';
    error: string;
  } | null;
  loadArchived(agentId: string): Promise<void>;
  /** Brings one back to the list and opens it; resolves to '' or the problem in words. */
  restore(agentId: string, sessionId: string): Promise<string>;
}

let held: Held | null = null;

export const useArchiveStore = create<ArchiveStore>((set, get) => ({
  pending: null,
  error: '',
  archive(agentId, sessionId) {
    void get().flush();
    const conversations = useConversationsStore.getState();
    const item = conversations.byAgent[agentId]?.items.find((i) => i.id === sessionId);
    if (!item) return;
    conversations.hide(agentId, sessionId);
    const title = conversationTitle(item);
    held = { agentId, item, title, timer: setTimeout(() => void get().flush(), ARCHIVE_UNDO_MS) };
    set({ pending: { sessionId, title }, error: '' });
  },
  undo() {
    if (!held) return;
    clearTimeout(held.timer);
    const { agentId, item } = held;
    held = null;
    set({ pending: null });
    useConversationsStore.getState().show(agentId, item);
    useConversationsStore.getState().select(item.id);
  },
  async flush() {
    if (!held) return;
    const { agentId, item, title, timer } = held;
    clearTimeout(timer);
    held = null;
    if (get().pending?.sessionId === item.id) set({ pending: null });
    const result = await desk().archiveConversation(agentId, item.id);
    if (result.ok) {
      useConversationsStore.getState().archived(agentId, item.id);
      // The archived list (where offered) now has one more.
      if (get().archived?.agentId === agentId) void get().loadArchived(agentId);
      return;
    }
    useConversationsStore.getState().show(agentId, item);
    set({
      error: `“${title}” could not be archived, so it is back in your list: ${errorWords(result.error)}`,
    });
  },
  dismissError() {
    set({ error: '' });
  },
  archived: null,
  async loadArchived(agentId) {
    const before = get().archived;
    const items = before?.agentId === agentId ? before.items : [];
    set({ archived: { agentId, items, status: 'loading', error: '' } });
    const result = await desk().listArchivedConversations(agentId);
    set({
      archived: result.ok
        ? { agentId, items: result.value, status: 'ready', error: '' }
        : { agentId, items, status: 'error', error: errorWords(result.error) },
    });
  },
  async restore(agentId, sessionId) {
    const result = await desk().restoreConversation(agentId, sessionId);
    if (!result.ok) return errorWords(result.error);
    const archived = get().archived;
    if (archived?.agentId === agentId)
      set({ archived: { ...archived, items: archived.items.filter((i) => i.id !== sessionId) } });
    const conversations = useConversationsStore.getState();
    await conversations.load(agentId);
    conversations.select(sessionId);
    return '';
  },
}));

// Leaving the page sends what is held rather than dropping it.
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => void useArchiveStore.getState().flush());
}
