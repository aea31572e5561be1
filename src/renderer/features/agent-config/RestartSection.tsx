import type { AgentConfiguration } from '../../../shared/api';
import { useAgentConfigStore } from '../../stores/agent-config-store';
import { SaveOutcome } from './SaveOutcome';
import { SectionFrame } from './SectionFrame';

/** Restart the agent's machine: the disk survives, running turns do not (said before the click). */
export function RestartSection(props: { config: AgentConfiguration }) {
  const restarting = useAgentConfigStore((s) => s.restarting);
  return (
    <SectionFrame
      section="restart"
      about="Stops the agent and starts it again, so it reads its configuration afresh."
    >
      <ul className="studio-facts">
        <li>The workspace survives: files, skills and settings stay as they are.</li>
        <li>
          <strong>Replies in progress are interrupted</strong>, in every conversation of{' '}
          {props.config.name ?? 'this agent'}.
        </li>
        <li>You are told when the agent is running again.</li>
      </ul>
      <button
        type="button"
        className="danger"
        disabled={restarting}
        onClick={() => void useAgentConfigStore.getState().restart()}
      >
        {restarting ? 'Restarting…' : 'Restart the agent'}
      </button>
      <SaveOutcome section="restart" />
    </SectionFrame>
  );
}
