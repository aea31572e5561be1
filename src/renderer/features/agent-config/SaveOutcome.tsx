import { useAgentConfigStore, type AgentConfigSection } from '../../stores/agent-config-store';
import { useAgentsStore } from '../../stores/agents-store';

/**
 * What the server did with the last save of this section: "Saved" with its note and the paths it applied,
 * a 502 ("saved, but the machine did not take it") with Restart, or the failure in plain words.
 */
export function SaveOutcome(props: { section: AgentConfigSection; offerRestart?: boolean }) {
  const outcome = useAgentConfigStore((s) => (s.outcome?.section === props.section ? s.outcome : null));
  const restarting = useAgentConfigStore((s) => s.restarting);
  const agentId = useAgentConfigStore((s) => s.agentId);
  const hasMachine = useAgentsStore((s) => !agentId || s.noMachine[agentId] === undefined);
  if (!outcome) return null;
  const applied = outcome.applied ?? [];
  const restart =
    hasMachine && (outcome.kind === 'not-taken' || (outcome.kind === 'saved' && props.offerRestart));
  return (
    <div
      className={`studio-outcome ${outcome.kind}`}
      role={outcome.kind === 'saved' ? 'status' : 'alert'}
      aria-label="Save result"
    >
      <p>{outcome.message}</p>
      {outcome.note && outcome.note !== outcome.message ? <p>{outcome.note}</p> : null}
      {applied.length > 0 ? (
        <p>
          <span className="studio-label">Applied:</span> {applied.join(', ')}
        </p>
      ) : null}
      {restart ? (
        <button
          type="button"
          disabled={restarting}
          onClick={() => void useAgentConfigStore.getState().restart()}
        >
          {restarting ? 'Restarting…' : 'Restart the agent'}
        </button>
      ) : null}
    </div>
  );
}

/** A field's problem, tied to the field by id for screen readers. */
export function FieldProblem(props: { id: string; problem: string | undefined }) {
  if (!props.problem) return null;
  return (
    <p id={props.id} className="field-problem" role="alert">
      {props.problem}
    </p>
  );
}
