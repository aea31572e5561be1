import { useEffect } from 'react';
import { useAgentsStore } from '../../stores/agents-store';
import { useConversationsStore } from '../../stores/conversations-store';
import { useAgentConfigStore } from '../../stores/agent-config-store';
import { useUiStore } from '../../stores/ui-store';
import { useSidebarStore } from '../../stores/sidebar-store';
import { searchConversations } from '../../model/conversation-search';
import { matchShortcut } from './shortcut-map';

/** Desktop habits: the app's keyboard shortcuts, on the whole window. */
export function useShortcuts(isMac: boolean): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = matchShortcut(event, isMac);
      if (!action) return;
      event.preventDefault();
      const agentId = useAgentsStore.getState().selectedAgentId;
      const conversations = useConversationsStore.getState();
      switch (action) {
        case 'new-conversation':
          if (!agentId) return;
          // Asked for: its message box takes the focus from wherever it is (the sidebar's search too).
          useUiStore.getState().focusComposer();
          void conversations.create(agentId);
          return;
        case 'search':
          // The list's filter is in the sidebar: a folded one unfolds for it.
          useSidebarStore.getState().setCollapsed(false);
          useUiStore.getState().focusSearch();
          return;
        case 'toggle-sidebar':
          useSidebarStore.getState().toggle();
          return;
        case 'focus-composer':
          useUiStore.getState().focusComposer();
          return;
        case 'open-agent-config': {
          const studio = useAgentConfigStore.getState();
          if (studio.agentId) studio.requestLeave(() => studio.close());
          else if (agentId) studio.open(agentId);
          return;
        }
        case 'next-conversation':
        case 'previous-conversation': {
          if (!agentId) return;
          const { threads } = conversations;
          const list = searchConversations(
            conversations.byAgent[agentId]?.items ?? [],
            useUiStore.getState().query,
            threads,
          );
          if (list.length === 0) return;
          const index = list.findIndex((i) => i.id === conversations.selectedId);
          const step = action === 'next-conversation' ? 1 : -1;
          const next = list[index < 0 ? 0 : (index + step + list.length) % list.length];
          if (next) conversations.select(next.id);
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [isMac]);
}
