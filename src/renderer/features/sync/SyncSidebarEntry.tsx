import { useEffect } from 'react';
import { useConnectivityStore } from '../../stores/connectivity-store';
import { useScreenStore } from '../../stores/screen-store';
import { useSyncStore } from '../../stores/sync-store';
import { summaryWords } from './sync-words';

/** The sidebar's way into the selected agent's sync panel, with a one-line state. */
export function SyncSidebarEntry(props: { agentId: string }) {
  const { agentId } = props;
  const folder = useSyncStore((s) => s.byAgent[agentId]?.folder);
  // Open and on screen: over another screen (Account, Settings…) the button brings the panel back.
  const onChat = useScreenStore((s) => s.screen === 'chat');
  const open = useSyncStore((s) => s.panelAgentId === agentId) && onChat;

  useEffect(() => useSyncStore.getState().watch(), []);
  useEffect(() => {
    const store = useSyncStore.getState();
    // An open panel follows the person to the next agent.
    if (store.panelAgentId && store.panelAgentId !== agentId) store.openPanel(agentId);
    void store.load(agentId);
  }, [agentId]);

  const online = useConnectivityStore((s) => s.online);
  useEffect(() => useConnectivityStore.getState().watch(), []);
  const summary = summaryWords(folder, online);
  const attention =
    !!folder &&
    (folder.status.conflicts.length > 0 || !!folder.status.pendingDeletes || folder.status.state === 'error');
  return (
    <section className="sync-entry" aria-label="Sync">
      <button
        type="button"
        className={`sync-entry-button ${open ? 'selected' : ''}`}
        aria-pressed={open}
        onClick={() => {
          const store = useSyncStore.getState();
          if (open) return store.closePanel();
          useScreenStore.getState().show('chat');
          store.openPanel(agentId);
        }}
      >
        <span className="agent-name">Sync folder</span>
        {summary ? <span className={attention ? 'agent-note' : 'when'}>{summary}</span> : null}
      </button>
    </section>
  );
}
