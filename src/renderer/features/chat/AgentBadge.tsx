import { useAgentsStore } from '../../stores/agents-store';
import { modelLabel } from '../../model/agent-words';
import { showDirectionControls } from '../../model/bidi-controls';

/** Who you are talking to: the agent's name, its engine and its model. */
export function AgentBadge(props: { agentId: string }) {
  const agent = useAgentsStore((s) => s.agents.find((a) => a.id === props.agentId));
  const config = useAgentsStore((s) => s.configs[props.agentId]);
  if (!agent) return null;
  const model = modelLabel(config);
  return (
    <p className="agent-badge" aria-label="Agent">
      <span className="agent-badge-name">{showDirectionControls(agent.nombre)}</span>
      {config?.engine ? <span className="pill">{config.engine}</span> : null}
      {model ? <span className="pill">{model}</span> : null}
    </p>
  );
}
