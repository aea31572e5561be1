import { showDirectionControls } from '../../model/bidi-controls';
import { useAgentsStore } from '../../stores/agents-store';
import { ApprovalRuleList } from '../../ui/ApprovalRuleList';

/** Settings → Chat: every agent's permission rules in one place (issue 39, item 2); each is edited in its studio too. */
export function PermissionRulesSettings() {
  const agents = useAgentsStore((s) => s.agents);
  return (
    <section className="screen-section" aria-label="Permission rules">
      <h4>Permission rules</h4>
      <p className="muted">
        Standing answers each agent gives its permission requests, made with “Always allow” or “Always
        reject”. A reject rule wins over an allow rule.
      </p>
      {agents.map((agent) => (
        <div key={agent.id} className="settings-rules">
          <h5>{showDirectionControls(agent.name)}</h5>
          <ApprovalRuleList agentId={agent.id} label={`Permission rules of ${agent.name}`} />
        </div>
      ))}
    </section>
  );
}
