import { useEffect, useRef } from 'react';
import { useScreenStore } from '../../stores/screen-store';
import { useAgentConfigStore } from '../../stores/agent-config-store';
import { useSyncStore } from '../../stores/sync-store';

/** The sidebar's way into the selected agent's studio (also Mod+, or Mod+Shift+E). */
export function AgentConfigSidebarEntry(props: { agentId: string }) {
  const { agentId } = props;
  const open = useAgentConfigStore((s) => s.agentId === agentId);
  const asking = useAgentConfigStore((s) => s.pendingLeave !== null);
  const syncOpen = useSyncStore((s) => s.panelAgentId === agentId);

  useEffect(() => {
    const store = useAgentConfigStore.getState();
    // An open studio follows the person to the next agent.
    if (store.agentId && store.agentId !== agentId) store.open(agentId, store.section);
  }, [agentId]);

  // The sync panel was asked for over the studio: the studio steps aside, asking first about unsaved
  // edits; when the person keeps editing, the sync panel closes again.
  const asked = useRef(false);
  useEffect(() => {
    const store = useAgentConfigStore.getState();
    if (!syncOpen || store.agentId !== agentId || asking) return;
    if (asked.current) {
      asked.current = false;
      useSyncStore.getState().closePanel();
    } else if (Object.values(store.dirty).some(Boolean)) {
      asked.current = true;
      store.requestLeave(() => {
        asked.current = false;
        useAgentConfigStore.getState().close();
      });
    } else store.close();
  }, [syncOpen, asking, agentId]);

  return (
    <section className="sync-entry" aria-label="Configure">
      <button
        type="button"
        className={`sync-entry-button ${open ? 'selected' : ''}`}
        aria-pressed={open}
        aria-keyshortcuts="Control+Comma Meta+Comma"
        onClick={() => {
          const store = useAgentConfigStore.getState();
          if (open) return store.requestLeave(() => useAgentConfigStore.getState().close());
          // One panel at a time, on the chat screen.
          useSyncStore.getState().closePanel();
          useScreenStore.getState().show('chat');
          store.open(agentId);
        }}
      >
        <span className="agent-name">Configure agent</span>
        <span className="when">Prompt, model, tools, MCP, skills, files</span>
      </button>
    </section>
  );
}
