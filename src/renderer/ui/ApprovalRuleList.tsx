import { ErrorLine } from './ErrorLine';
import { useEffect, useState } from 'react';
import type { ApprovalRuleView } from '../../shared/api';
import { showDirectionControls } from '../model/bidi-controls';
import { ruleDateWords, ruleEffectWords, ruleScopeWords, ruleToolWords } from '../model/rule-words';
import { useApprovalRulesStore } from '../stores/approval-rules-store';
import './studio-list.css';

const ruleWords = (rule: ApprovalRuleView) =>
  `${ruleEffectWords(rule)}: ${ruleToolWords(rule.tool).toLowerCase()}, ${ruleScopeWords(rule.folder)}`;

/**
 * One agent's approval rules, each with its scope and the day it was made, each removable; where they are
 * kept (the server, for every device, or this computer). Read afresh when shown. Studio and Settings.
 */
export function ApprovalRuleList(props: { agentId: string; label: string }) {
  const { agentId } = props;
  const list = useApprovalRulesStore((s) => s.byAgent[agentId]);
  const failed = useApprovalRulesStore((s) => s.failed[agentId]);
  const [removing, setRemoving] = useState('');
  const [problem, setProblem] = useState('');
  useEffect(() => {
    void useApprovalRulesStore.getState().load(agentId);
  }, [agentId]);

  const remove = async (rule: ApprovalRuleView) => {
    setRemoving(rule.id);
    setProblem(await useApprovalRulesStore.getState().remove(agentId, rule.id));
    setRemoving('');
  };

  if (!list) return <p className={failed ? 'error-text' : 'muted'}>{failed ?? 'Loading the rules…'}</p>;
  return (
    <>
      <p className="muted small-text">
        {list.keptOn === 'server'
          ? 'Kept by the server: every device you sign in on answers with them.'
          : 'This server keeps no rules, so they are kept on this computer only.'}
      </p>
      {list.rules.length === 0 ? (
        <p className="muted">
          No rules yet. “Always allow” or “Always reject” on a permission request makes one.
        </p>
      ) : (
        <ul className="studio-list" aria-label={props.label}>
          {list.rules.map((rule) => (
            <li key={rule.id}>
              <div>
                <strong>{ruleEffectWords(rule)}</strong> · {ruleToolWords(rule.tool)} ·{' '}
                {showDirectionControls(ruleScopeWords(rule.folder))}
                <p className="muted small-text">Made {ruleDateWords(rule.madeAt)}</p>
              </div>
              <button
                type="button"
                className="small"
                aria-label={`Remove the rule ${ruleWords(rule)}`}
                disabled={removing === rule.id}
                onClick={() => void remove(rule)}
              >
                {removing === rule.id ? 'Removing…' : 'Remove'}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorLine text={problem} />
    </>
  );
}
