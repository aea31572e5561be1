import { useEffect } from 'react';
import { useStudioStore } from '../../stores/studio-store';
import { useSyncStore } from '../../stores/sync-store';

/** The sidebar's way into the selected agent's studio (also Mod+, or Mod+Shift+E). */
export function StudioSidebarEntry(props: { agentId: string; shortcut?: string }) {
  const { agentId } = props;
  const open = useStudioStore((s) => s.agentId === agentId);
  const syncOpen = useSyncStore((s) => s.panelAgentId === agentId);

  // The sync panel opened over the studio: the studio steps aside (asking first about unsaved edits).
  useEffect(() => {
    const store = useStudioStore.getState();
    if (syncOpen && store.agentId) store.requestLeave(() => useStudioStore.getState().close());
  }, [syncOpen]);

  useEffect(() => {
    const store = useStudioStore.getState();
    // An open studio follows the person to the next agent.
    if (store.agentId && store.agentId !== agentId) store.open(agentId, store.section);
  }, [agentId]);

  return (
    <section className="sync-entry" aria-label="Configure">
      <button
        type="button"
        className={`sync-entry-button ${open ? 'selected' : ''}`}
        aria-pressed={open}
        aria-keyshortcuts={props.shortcut}
        onClick={() => {
          const store = useStudioStore.getState();
          if (open) store.requestLeave(() => store.close());
          else {
            // One panel at a time in the content area.
            useSyncStore.getState().closePanel();
            store.open(agentId);
          }
        }}
      >
        <span className="agent-name">Configure agent</span>
        <span className="when">Prompt, model, tools, MCP, skills, files</span>
      </button>
    </section>
  );
}
