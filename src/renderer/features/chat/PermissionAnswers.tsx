import { ErrorLine } from '../../ui/ErrorLine';
import { useState } from 'react';
import { folderChoices, optionFor } from '../../model/approval-match';
import { ruleToolWords } from '../../model/rule-words';
import type { PermissionPart } from '../../model/turn-reducer';
import { useApprovalRulesStore } from '../../stores/approval-rules-store';
import { permissionKey, usePermissionsStore } from '../../stores/permissions-store';
import { showDirectionControls } from '../../model/bidi-controls';
import { optionLabel } from './permission-view';

type Effect = 'allow' | 'deny';

/**
 * An open request's answers: the agent's one-time options, and "Always allow" / "Always reject", which
 * make a rule of the agent (for this tool; where the request names a path, optionally only under one of
 * its folders) and answer this request with it. The agent's own "always" options are left out: a rule
 * is what lasts, and it can be removed (issue 39, item 2).
 */
export function PermissionAnswers(props: {
  agentId: string;
  sessionId: string;
  part: PermissionPart;
  asked: { tool: string; path?: string };
}) {
  const { agentId, sessionId, part, asked } = props;
  const k = permissionKey(sessionId, part.id);
  const answering = usePermissionsStore((s) => s.answering[k]);
  const [choosing, setChoosing] = useState<Effect | null>(null);
  const [folder, setFolder] = useState('');
  const [problem, setProblem] = useState('');
  const [saving, setSaving] = useState(false);
  const folders = folderChoices(asked.path);
  const permissions = usePermissionsStore.getState();

  const makeRule = async (effect: Effect, where: string | null) => {
    const optionId = optionFor(part.options, effect);
    if (!optionId) return;
    setSaving(true);
    setProblem('');
    const rules = useApprovalRulesStore.getState();
    const made = await rules.add(agentId, { effect, tool: asked.tool, folder: where });
    setSaving(false);
    if (typeof made === 'string') return setProblem(`The rule was not kept: ${made}`);
    rules.noteAnswered(k, made);
    await permissions.answer(agentId, sessionId, part.id, optionId);
  };
  const always = (effect: Effect) => {
    if (folders.length === 0) return void makeRule(effect, null);
    setFolder('');
    setChoosing(effect);
  };

  if (choosing) {
    const what = ruleToolWords(asked.tool);
    return (
      <form
        className="permission-rule-form"
        onSubmit={(event) => {
          event.preventDefault();
          void makeRule(choosing, folder === '' ? null : folder);
        }}
      >
        <fieldset>
          <legend>
            {choosing === 'allow' ? 'Always allow' : 'Always reject'} {what.toLowerCase()} for this agent:
          </legend>
          <label>
            <input type="radio" name="rule-folder" checked={folder === ''} onChange={() => setFolder('')} />{' '}
            Anywhere
          </label>
          {folders.map((f) => (
            <label key={f}>
              <input type="radio" name="rule-folder" checked={folder === f} onChange={() => setFolder(f)} />{' '}
              Only in {showDirectionControls(f)}
            </label>
          ))}
        </fieldset>
        <div className="permission-options">
          <button type="submit" className={choosing === 'allow' ? 'primary' : 'danger'} disabled={saving}>
            {saving ? 'Saving…' : choosing === 'allow' ? 'Save rule and allow' : 'Save rule and reject'}
          </button>
          <button type="button" onClick={() => setChoosing(null)} disabled={saving}>
            Cancel
          </button>
        </div>
        <ErrorLine text={problem} />
      </form>
    );
  }

  const once = part.options.filter((o) => o.kind !== 'allow_always' && o.kind !== 'reject_always');
  const busy = answering !== undefined || saving;
  return (
    <>
      <div className="permission-options" role="group" aria-label="Answer">
        {once.map((option) => (
          <button
            key={option.optionId}
            type="button"
            className={option.kind?.startsWith('reject') ? 'danger' : 'primary'}
            disabled={busy}
            onClick={() => void permissions.answer(agentId, sessionId, part.id, option.optionId)}
          >
            {answering === option.optionId ? 'Sending…' : optionLabel(option)}
          </button>
        ))}
        {optionFor(part.options, 'allow') ? (
          <button type="button" disabled={busy} onClick={() => always('allow')}>
            Always allow
          </button>
        ) : null}
        {optionFor(part.options, 'deny') ? (
          <button type="button" disabled={busy} onClick={() => always('deny')}>
            Always reject
          </button>
        ) : null}
      </div>
      <ErrorLine text={problem} />
    </>
  );
}
