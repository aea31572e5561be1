import { create } from 'zustand';
import type { ChatMessage, ConversationSummary, TurnSummary } from '../../shared/api';
import type {
  AttachmentMeta,
  DeskError,
  MemoryConversation,
  ShareState,
  TurnDetail,
} from '../../shared/bridge';
import { desk } from '../desk';
import { errorWords } from '../error-words';
import { useAgentsStore } from './agents-store';
import { changesWhileListing, overlay } from './changes-while-listing';
import { newConversationMaker } from './new-conversation';
import { sortByRecent, visible, withTurn } from '../model/conversation-list';

/** How many messages a conversation opens with; earlier ones load on scroll. */
export const threadPageSize = 50;

export interface AgentConversations {
  items: ConversationSummary[];
  status: 'loading' | 'ready' | 'error';
  error: string;
}

/** A history message with what the app stored of its turn (thoughts, tools, usage, attachments). */
export type ThreadMessage = ChatMessage & { detail?: TurnDetail; attachments?: AttachmentMeta[] };

export interface Thread {
  messages: ThreadMessage[];
  /** Read from this computer's store because the server could not be reached. */
  offline?: boolean;
  /** The latest stored `models` event, so the picker shows before the next turn. */
  models?: MemoryConversation['models'];
  /** How many earlier messages the service left out. */
  skipped: number;
  status: 'loading' | 'ready' | 'error';
  loadingEarlier: boolean;
  error: string;
}

interface ConversationsStore {
  byAgent: Record<string, AgentConversations>;
  selectedId: string | null;
  threads: Record<string, Thread>;
  shares: Record<string, ShareState>;
  /** A plain-words notice from the last action (rename, archive, share...). */
  notice: string;
  /** Conversations taken off the list while their archive waits for Undo: a reload must not bring them back. */
  hidden: Record<string, true>;
  /**
   * The agent whose new conversation the server is making (`problem` once it could not): the app shows an
   * empty message box for it at once, so what the person types meanwhile goes there, not into the
   * conversation shown before (drafts-store's `newConversationDraft`).
   */
  starting: { agentId: string; problem: string } | null;
  /** The conversation `create` opened last: its composer takes what was typed while it was being made. */
  startedId: string | null;
  /**
   * The conversation the app opened by itself (the newest, or the one remembered, at start): its composer
   * takes what was typed into the welcome's message box while the list was on its way.
   */
  openedByApp: string | null;
  load(agentId: string): Promise<void>;
  /** Loads the list again without showing a loading state, and only re-renders when it changed. */
  refresh(agentId: string): Promise<void>;
  /** Opens a conversation; `byApp` when the app opens it by itself, not the person. */
  select(sessionId: string | null, byApp?: boolean): void;
  /** Opens the newest empty conversation when there is one, else creates one. */
  create(agentId: string): Promise<string | undefined>;
  rename(agentId: string, sessionId: string, title: string): Promise<boolean>;
  /** Takes a conversation off the list (selecting its neighbour); `show` puts it back. */
  hide(agentId: string, sessionId: string): void;
  show(agentId: string, item: ConversationSummary): void;
  /**
   * The server no longer lists it (archived for real): a listing read before that and answered after
   * cannot bring it back; a later restore may list it again.
   */
  archived(agentId: string, sessionId: string): void;
  loadShare(agentId: string, sessionId: string): Promise<void>;
  setShared(agentId: string, sessionId: string, shared: boolean): Promise<void>;
  /**
   * Loads the thread's tail: at least `atLeast` messages (a search jumps further back). `loaded` runs in the
   * same step as the new history is set, on success, with the last turn the read saw.
   */
  loadThread(
    agentId: string,
    sessionId: string,
    atLeast?: number,
    loaded?: (lastTurn: TurnSummary | null) => void,
  ): Promise<void>;
  loadEarlier(agentId: string, sessionId: string): Promise<void>;
  applyTitle(agentId: string, sessionId: string, title: string): void;
  applyTurn(agentId: string, sessionId: string, turn: TurnSummary): void;
  reset(): void;
}

function noteFailure(agentId: string, error: DeskError): string {
  if (error.code === 'agente_no_acp') {
    useAgentsStore.getState().setNoMachine(agentId, error.engine ?? '');
  }
  return errorWords(error);
}

const initial = {
  byAgent: {},
  selectedId: null,
  threads: {},
  shares: {},
  notice: '',
  hidden: {},
  starting: null,
  startedId: null,
  openedByApp: null,
};

export const useConversationsStore = create<ConversationsStore>((set, get) => {
  const patchList = (agentId: string, change: (items: ConversationSummary[]) => ConversationSummary[]) => {
    const current = get().byAgent[agentId];
    if (!current) return;
    set({ byAgent: { ...get().byAgent, [agentId]: { ...current, items: change(current.items) } } });
  };
  const patchThread = (sessionId: string, change: Partial<Thread>) => {
    const current = get().threads[sessionId] ?? {
      messages: [],
      skipped: 0,
      status: 'loading' as const,
      loadingEarlier: false,
      error: '',
    };
    set({ threads: { ...get().threads, [sessionId]: { ...current, ...change } } });
  };

  // A slow host answers a listing read before a conversation made (or archived) here after that one's
  // answer: the change stands.
  const meanwhile = changesWhileListing<ConversationSummary>();
  const listConversations = async (agentId: string) => {
    const [result, changes] = await meanwhile.list(agentId, () => desk().listConversations(agentId));
    if (!result.ok) return result;
    return { ...result, value: overlay(result.value, changes, 'listed') };
  };

  const create = newConversationMaker({
    get,
    set,
    patchThread,
    noteFailure,
    patchList: (agentId, change) =>
      patchList(agentId, (items) => {
        const next = change(items);
        for (const item of next) if (!items.includes(item)) meanwhile.added(agentId, item);
        return next;
      }),
  });

  return {
    ...initial,
    async load(agentId) {
      const previous = get().byAgent[agentId];
      set({
        byAgent: {
          ...get().byAgent,
          [agentId]: { items: previous?.items ?? [], status: 'loading', error: '' },
        },
      });
      const result = await listConversations(agentId);
      // A list is the server's word that the agent can chat (an engine changed elsewhere, say).
      if (result.ok) useAgentsStore.getState().setNoMachine(agentId, null);
      const entry: AgentConversations = result.ok
        ? { items: visible(result.value, get().hidden), status: 'ready', error: '' }
        : { items: [], status: 'error', error: noteFailure(agentId, result.error) };
      set({ byAgent: { ...get().byAgent, [agentId]: entry } });
    },
    async refresh(agentId) {
      const result = await listConversations(agentId);
      const current = get().byAgent[agentId];
      if (!result.ok || current?.status !== 'ready') return;
      const items = visible(result.value, get().hidden);
      if (JSON.stringify(items) === JSON.stringify(current.items)) return;
      set({ byAgent: { ...get().byAgent, [agentId]: { ...current, items } } });
    },
    select(sessionId, byApp = false) {
      set({
        selectedId: sessionId,
        notice: '',
        starting: null,
        startedId: null,
        openedByApp: byApp ? sessionId : null,
      });
    },
    create,
    async rename(agentId, sessionId, title) {
      const result = await desk().renameConversation(agentId, sessionId, title);
      if (!result.ok) {
        set({ notice: errorWords(result.error) });
        return false;
      }
      patchList(agentId, (items) => items.map((i) => (i.id === sessionId ? { ...i, title } : i)));
      return true;
    },
    hide(agentId, sessionId) {
      const items = get().byAgent[agentId]?.items ?? [];
      const index = items.findIndex((i) => i.id === sessionId);
      set({ hidden: { ...get().hidden, [sessionId]: true } });
      patchList(agentId, (list) => list.filter((i) => i.id !== sessionId));
      if (get().selectedId === sessionId) {
        const rest = items.filter((i) => i.id !== sessionId);
        set({ selectedId: rest[Math.min(index, rest.length - 1)]?.id ?? null });
      }
    },
    archived(agentId, sessionId) {
      meanwhile.removed(agentId, sessionId);
      const { [sessionId]: _gone, ...hidden } = get().hidden;
      set({ hidden });
    },
    show(agentId, item) {
      const { [item.id]: _shown, ...hidden } = get().hidden;
      set({ hidden });
      patchList(agentId, (list) => sortByRecent([item, ...list.filter((i) => i.id !== item.id)]));
    },
    async loadShare(agentId, sessionId) {
      const result = await desk().getShare(agentId, sessionId);
      if (result.ok) set({ shares: { ...get().shares, [sessionId]: result.value } });
    },
    async setShared(agentId, sessionId, shared) {
      const result = shared
        ? await desk().share(agentId, sessionId)
        : await desk().unshare(agentId, sessionId);
      if (!result.ok) return set({ notice: errorWords(result.error) });
      set({
        shares: { ...get().shares, [sessionId]: result.value },
        notice: shared
          ? 'Anyone with the link can now read this conversation.'
          : 'The public link no longer works.',
      });
    },
    async loadThread(agentId, sessionId, atLeast = threadPageSize, loaded) {
      patchThread(sessionId, {
        status: get().threads[sessionId]?.messages.length ? 'ready' : 'loading',
        error: '',
      });
      const limit = Math.max(atLeast, get().threads[sessionId]?.messages.length ?? 0);
      const result = await desk().openConversation(agentId, sessionId, { limit });
      if (!result.ok)
        return patchThread(sessionId, { status: 'error', error: noteFailure(agentId, result.error) });
      patchThread(sessionId, {
        messages: result.value.messages.map(toThreadMessage),
        skipped: result.value.skipped,
        offline: result.value.offline,
        models: result.value.models,
        status: 'ready',
      });
      if (result.value.lastTurn) get().applyTurn(agentId, sessionId, result.value.lastTurn);
      loaded?.(result.value.lastTurn);
    },
    async loadEarlier(agentId, sessionId) {
      const thread = get().threads[sessionId];
      if (!thread || thread.loadingEarlier || thread.skipped === 0) return;
      patchThread(sessionId, { loadingEarlier: true });
      // The API has no offset: ask for a longer tail and keep what is new at its front.
      const limit = thread.messages.length + Math.min(thread.skipped, threadPageSize * 4);
      const result = await desk().openConversation(agentId, sessionId, { limit });
      if (!result.ok)
        return patchThread(sessionId, { loadingEarlier: false, error: errorWords(result.error) });
      const latest = get().threads[sessionId] ?? thread;
      const added = result.value.messages.length - thread.messages.length;
      const earlier = result.value.messages.slice(0, Math.max(0, added)).map(toThreadMessage);
      patchThread(sessionId, {
        messages: [...earlier, ...latest.messages],
        skipped: result.value.skipped,
        loadingEarlier: false,
      });
    },
    applyTitle(agentId, sessionId, title) {
      patchList(agentId, (items) => items.map((i) => (i.id === sessionId ? { ...i, title } : i)));
    },
    applyTurn(agentId, sessionId, turn) {
      patchList(agentId, (items) =>
        sortByRecent(items.map((i) => (i.id === sessionId ? withTurn(i, turn) : i))),
      );
    },
    reset() {
      set(initial);
    },
  };
});

function toThreadMessage(m: MemoryConversation['messages'][number]): ThreadMessage {
  return {
    role: m.role,
    content: m.content,
    at: new Date(m.at).toISOString(),
    ...(m.detail ? { detail: m.detail } : {}),
    ...(m.attachments ? { attachments: m.attachments } : {}),
  };
}
