import type { ConversationSummary } from '../../shared/api';
import type { DeskError } from '../../shared/bridge';
import { desk } from '../desk';
import { useAgentsStore } from './agents-store';
import { hasSchedules, isEmptyConversation, knownSchedules } from './empty-conversation';

/** What making a conversation reads and writes of the conversations store. */
interface Starting {
  byAgent: Record<string, { items: ConversationSummary[] } | undefined>;
  threads: Record<string, { messages: readonly unknown[] } | undefined>;
  starting: { agentId: string; problem: string } | null;
}
type Change = Partial<{
  selectedId: string | null;
  startedId: string | null;
  starting: { agentId: string; problem: string } | null;
  notice: string;
}>;

interface MakerDeps {
  get(): Starting;
  set(change: Change): void;
  patchList(agentId: string, change: (items: ConversationSummary[]) => ConversationSummary[]): void;
  patchThread(sessionId: string, change: { messages: []; skipped: 0; status: 'ready' }): void;
  noteFailure(agentId: string, error: DeskError): string;
}

/** The new conversation each agent is being given, while the server makes it. */
const creations = new Map<string, Promise<string | undefined>>();

/**
 * The store's `create`: opens the newest empty conversation when there is one, else has the server make
 * one. While it is made, `starting` shows an empty message box for it at once, so what the person types
 * meanwhile goes there (drafts-store's `newConversationDraft`), not into the conversation shown before.
 */
export function newConversationMaker(deps: MakerDeps): (agentId: string) => Promise<string | undefined> {
  const { get, set } = deps;
  // Shows a conversation `create` made or reused; after a wait only while the person still waits for it
  // (a conversation or agent picked meanwhile, `select`, ends `starting`: that pick stands).
  const opened = (agentId: string, sessionId: string, waited: boolean): string => {
    const wanted = waited ? get().starting : { agentId: useAgentsStore.getState().selectedAgentId };
    if (wanted?.agentId === agentId)
      set({ selectedId: sessionId, startedId: sessionId, starting: null, notice: '' });
    return sessionId;
  };
  const makeConversation = async (agentId: string, empty: ConversationSummary | undefined) => {
    if (empty && !(await hasSchedules(agentId, empty.id))) return opened(agentId, empty.id, true);
    const result = await desk().createConversation(agentId);
    if (!result.ok) {
      const problem = deps.noteFailure(agentId, result.error);
      if (get().starting?.agentId === agentId) set({ starting: { agentId, problem } });
      else set({ notice: problem });
      return undefined;
    }
    const item: ConversationSummary = {
      id: result.value.id,
      title: null,
      updatedAt: new Date().toISOString(),
      lastTurn: null,
    };
    deps.patchList(agentId, (items) => [item, ...items.filter((i) => i.id !== item.id)]);
    deps.patchThread(item.id, { messages: [], skipped: 0, status: 'ready' });
    return opened(agentId, item.id, true);
  };

  return (agentId) => {
    const empty = get().byAgent[agentId]?.items.find((i) => isEmptyConversation(i, get().threads[i.id]));
    if (empty && knownSchedules(empty.id) === false) return Promise.resolve(opened(agentId, empty.id, false));
    // One at a time per agent: Mod+N pressed again, or Send in the box shown meanwhile, waits for the same.
    const making = creations.get(agentId);
    if (making) return making;
    set({ selectedId: null, starting: { agentId, problem: '' }, notice: '' });
    const made = makeConversation(agentId, empty).finally(() => creations.delete(agentId));
    creations.set(agentId, made);
    return made;
  };
}
