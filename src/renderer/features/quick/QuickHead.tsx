import { useEffect } from 'react';
import { useAgentsStore } from '../../stores/agents-store';
import { useConversationsStore } from '../../stores/conversations-store';
import { AgentOptions } from '../../ui/AgentOptions';
import { leaveQuick } from './leave-quick';
import './quick.css';

/**
 * The quick window's one line: which agent the new conversation is with (another can be picked), the way
 * to carry on in the main window, and Esc.
 */
export function QuickHead() {
  const agents = useAgentsStore((s) => s.agents);
  const agentId = useAgentsStore((s) => s.selectedAgentId);
  const sessionId = useConversationsStore((s) => s.selectedId);
  return (
    <header className="quick-head">
      <h1 className="brand">Quick chat</h1>
      <label>
        with{' '}
        <select
          aria-label="Agent"
          value={agentId ?? ''}
          onChange={(event) => useAgentsStore.getState().select(event.target.value)}
        >
          <AgentOptions agents={agents} />
        </select>
      </label>
      <button
        type="button"
        className="quick-open"
        disabled={!agentId || !sessionId}
        onClick={() => agentId && sessionId && void leaveQuick({ agentId, sessionId })}
      >
        Open in AgentDesk
      </button>
      <kbd className="muted small-text" title="Escape closes the quick chat">
        Esc
      </kbd>
    </header>
  );
}

/**
 * Escape closes the quick window, unless something open in it takes the key first (a dialog, a menu, the
 * message box's own Escape).
 */
export function useEscapeCloses(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('[role="dialog"], [role="menu"]')) return;
      void leaveQuick();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
