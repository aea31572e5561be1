import { showDirectionControls } from '../model/bidi-controls';

/** An <option> per agent, named as everywhere (direction marks in a name shown, not obeyed). */
export function AgentOptions(props: { agents: readonly { id: string; name: string }[] }) {
  return props.agents.map((agent) => (
    <option key={agent.id} value={agent.id}>
      {showDirectionControls(agent.name)}
    </option>
  ));
}
