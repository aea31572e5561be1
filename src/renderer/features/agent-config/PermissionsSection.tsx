import { ErrorLine } from '../../ui/ErrorLine';
import { useState } from 'react';
import { ruleToolWords } from '../../model/rule-words';
import { useApprovalRulesStore } from '../../stores/approval-rules-store';
import { ApprovalRuleList } from '../../ui/ApprovalRuleList';
import { SectionFrame } from './SectionFrame';

/** Kinds of action a rule is usually for (a permission card can also make one for any tool it names). */
const kinds = ['edit', 'execute', 'read', 'delete', 'move', 'fetch', 'search'] as const;

/** The agent's approval rules (issue 39, item 2): the list, and a rule made by hand. */
export function PermissionsSection(props: { agentId: string }) {
  const { agentId } = props;
  const [effect, setEffect] = useState<'allow' | 'deny'>('deny');
  const [tool, setTool] = useState<string>('execute');
  const [folder, setFolder] = useState('');
  const [problem, setProblem] = useState('');
  const [saving, setSaving] = useState(false);

  const add = async () => {
    setSaving(true);
    const made = await useApprovalRulesStore
      .getState()
      .add(agentId, { effect, tool, folder: folder.trim() === '' ? null : folder.trim() });
    setSaving(false);
    setProblem(typeof made === 'string' ? made : '');
    if (typeof made !== 'string') setFolder('');
  };

  return (
    <SectionFrame
      section="permissions"
      about="Standing answers to the agent’s permission requests, in every conversation. When a rule matches, the app answers for you and the request says “Allowed by your rule”. A reject rule wins over an allow rule."
    >
      <ApprovalRuleList agentId={agentId} label="Permission rules" />
      <form
        className="studio-subform"
        aria-label="New rule"
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <h3>New rule</h3>
        <p>
          <label>
            Answer{' '}
            <select value={effect} onChange={(e) => setEffect(e.target.value as 'allow' | 'deny')}>
              <option value="deny">Always reject</option>
              <option value="allow">Always allow</option>
            </select>
          </label>{' '}
          <label>
            for{' '}
            <select value={tool} onChange={(e) => setTool(e.target.value)}>
              {kinds.map((kind) => (
                <option key={kind} value={kind}>
                  {ruleToolWords(kind)}
                </option>
              ))}
            </select>
          </label>
        </p>
        <p>
          <label>
            Only in the folder (optional){' '}
            <input
              value={folder}
              maxLength={1024}
              onChange={(e) => setFolder(e.target.value)}
              placeholder="kb/notes"
            />
          </label>
        </p>
        <button type="submit" disabled={saving}>
          {saving ? 'Adding…' : 'Add rule'}
        </button>
        <ErrorLine text={problem} />
      </form>
    </SectionFrame>
  );
}
