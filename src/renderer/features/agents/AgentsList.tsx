import './agents.css';
import { useEffect, useRef, useState } from 'react';
import type { Agent } from '../../../shared/api';
import { engineWords } from '../../model/agent-words';
import { useAgentsStore } from '../../stores/agents-store';
import { useAgentConfigStore } from '../../stores/agent-config-store';
import { showDirectionControls } from '../../model/bidi-controls';
import { AgentActions, NewAgentButton } from './AgentActions';

/** What runs an agent, in a person's words: its engine once its configuration is known, else where it lives. */
function agentKind(agent: Agent, config: { engine?: string; about?: unknown } | undefined): string {
  if (config?.engine) return engineWords(config, config.engine).name;
  return agent.protocol === 'acp' ? '' : 'An agent reached over the web';
}

/** The person's agents: name, what runs them, what stops one from chatting; making, renaming and deleting them. */
export function AgentsList() {
  const agents = useAgentsStore((s) => s.agents);
  const status = useAgentsStore((s) => s.status);
  const error = useAgentsStore((s) => s.error);
  const selected = useAgentsStore((s) => s.selectedAgentId);
  const noMachine = useAgentsStore((s) => s.noMachine);
  const configs = useAgentsStore((s) => s.configs);
  const nav = useRef<HTMLElement>(null);
  // After a delete, the focus goes to the agent now selected (its Delete button may be gone, or belong
  // to another agent): once this list shows the new selection, which runs after the dialog gave focus back.
  const [deleted, setDeleted] = useState(false);
  useEffect(() => {
    if (!deleted) return;
    setDeleted(false);
    const row = nav.current?.querySelector<HTMLElement>('[aria-current="true"]');
    (row ?? nav.current?.querySelector<HTMLElement>('.section-row button'))?.focus();
  }, [deleted, selected]);
  return (
    <nav className="agents" aria-label="Agents" ref={nav}>
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
                useAgentConfigStore.getState().requestLeave(() => useAgentsStore.getState().select(agent.id))
              }
            >
              <span className="agent-name">{showDirectionControls(agent.name)}</span>
              <span className="agent-protocol">{agentKind(agent, configs[agent.id])}</span>
              {noMachine[agent.id] !== undefined ? <span className="agent-note">Cannot chat</span> : null}
            </button>
            {/* With the agent they act on, not under the list's last one. */}
            {agent.id === selected ? <AgentActions onDeleted={() => setDeleted(true)} /> : null}
          </li>
        ))}
      </ul>
    </nav>
  );
}
