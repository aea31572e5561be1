import { useConversationsStore } from '../../stores/conversations-store';
import { useScreenStore } from '../../stores/screen-store';
import { useAgentConfigStore } from '../../stores/agent-config-store';
import { useSyncStore } from '../../stores/sync-store';

/**
 * Brings the chat forward for a conversation picked in the sidebar (a row, + New): the studio steps aside
 * (asking first about unsaved changes) and so does the sync panel, or the click would change nothing
 * visible.
 */
export function showConversation(pick: () => void): void {
  const reveal = () => {
    useAgentConfigStore.getState().close();
    useSyncStore.getState().closePanel();
    useScreenStore.getState().show('chat');
    pick();
  };
  if (useAgentConfigStore.getState().agentId) useAgentConfigStore.getState().requestLeave(reveal);
  else reveal();
}

export function startConversation(agentId: string): void {
  showConversation(() => void useConversationsStore.getState().create(agentId));
}
