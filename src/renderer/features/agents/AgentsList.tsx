import './agents.css';
import type { Agente } from '../../../shared/api';
import { useAgentsStore } from '../../stores/agents-store';
import { useStudioStore } from '../../stores/studio-store';
import { showDirectionControls } from '../../model/bidi-controls';
import { AgentActions, NewAgentButton } from './AgentActions';

const protocolWords: Record<Agente['protocolo'], string> = { acp: 'ACP', sse: 'SSE', http: 'HTTP' };

/** The person's agents: name, protocol, what stops one from chatting; making, renaming and deleting them. */
export function AgentsList() {
  const agents = useAgentsStore((s) => s.agents);
  const status = useAgentsStore((s) => s.status);
  const error = useAgentsStore((s) => s.error);
  const selected = useAgentsStore((s) => s.selectedAgentId);
  const noConversations = useAgentsStore((s) => s.noConversations);
  return (
    <nav className="agents" aria-label="Agents">
      <div className="section-row">
        <h2 className="section-title">Agents</h2>
        <NewAgentButton />
      </div>
      {status === 'loading' && agents.length === 0 ? <p className="muted">Loading your agents…</p> : null}
      {error ? (
        <p className="error-text" role="alert">
          {error}{' '}
          <button type="button" className="link" onClick={() => void useAgentsStore.getState().load()}>
            Try again
          </button>
        </p>
      ) : null}
      <ul role="list">
        {agents.map((agent) => (
          <li key={agent.id}>
            <button
              type="button"
              className={`agent ${agent.id === selected ? 'selected' : ''}`}
              aria-current={agent.id === selected ? 'true' : undefined}
              // An open studio with unsaved edits asks before following the person to another agent.
              onClick={() =>
                useStudioStore.getState().requestLeave(() => useAgentsStore.getState().select(agent.id))
              }
            >
              <span className="agent-name">{showDirectionControls(agent.nombre)}</span>
              <span className="agent-protocol">{protocolWords[agent.protocolo] ?? agent.protocolo}</span>
              {noConversations[agent.id] !== undefined ? (
                <span className="agent-note">No conversations on this engine</span>
              ) : null}
            </button>
          </li>
        ))}
      </ul>
      <AgentActions />
    </nav>
  );
}
