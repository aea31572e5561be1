import type { SearchHit } from '../../../shared/bridge';
import { useAgentsStore } from '../../stores/agents-store';
import { useConversationsStore } from '../../stores/conversations-store';
import { useSearchStore } from '../../stores/search-store';
import { useScreenStore } from '../../stores/screen-store';

/** The whole history the API gives in one answer, so a hit far back is in the loaded thread. */
const WHOLE_THREAD = 10_000;

/** Opens the hit's conversation (switching agent if needed) and points the thread at its message. */
export async function jumpToHit(hit: SearchHit): Promise<void> {
  await reachAgent(hit.agentId);
  useSearchStore.getState().setTarget({ sessionId: hit.conversationId, position: hit.position });
  const conversations = useConversationsStore.getState();
  conversations.select(hit.conversationId);
  await conversations.loadThread(hit.agentId, hit.conversationId, WHOLE_THREAD);
}

/** Opens one of any agent's conversations (the empty palette's recent ones). */
export async function openConversationOf(agentId: string, sessionId: string): Promise<void> {
  useScreenStore.getState().show('chat');
  await reachAgent(agentId);
  useConversationsStore.getState().select(sessionId);
}

async function reachAgent(agentId: string): Promise<void> {
  const agents = useAgentsStore.getState();
  if (agents.selectedAgentId === agentId) return;
  agents.select(agentId);
  // Choosing an agent clears the selection and loads its list; choose the conversation after that.
  await listSettled(agentId);
}

function listSettled(agentId: string): Promise<void> {
  const settled = (): boolean => {
    const status = useConversationsStore.getState().byAgent[agentId]?.status;
    return status === 'ready' || status === 'error';
  };
  if (settled()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = useConversationsStore.subscribe(() => {
      if (!settled()) return;
      stop();
      resolve();
    });
  });
}
