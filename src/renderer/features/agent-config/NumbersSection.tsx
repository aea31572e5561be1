import { useEffect, useState } from 'react';
import { MsgappPutBody, type MsgappNumberList } from '../../../shared/api';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { checkForm } from '../../model/form-problems';
import { useAgentConfigStore } from '../../stores/agent-config-store';
import { SaveOutcome } from './SaveOutcome';
import { SectionForm } from './SectionForm';
import { SectionFrame } from './SectionFrame';
import { useDraft } from './use-draft';

/** The business-chat (msgapp1) numbers this agent answers; taking one from another agent is said first. */
export function NumbersSection(props: { agentId: string }) {
  const { agentId } = props;
  const [numbers, setNumbers] = useState<MsgappNumberList | null>(null);
  const [loadError, setLoadError] = useState('');
  const [saving, setSaving] = useState(false);
  const mine = numbers ? numbers.numbers.filter((n) => n.mine).map((n) => n.id) : [];
  const { draft, setDraft, dirty, reset } = useDraft('numbers', mine);

  useEffect(() => {
    let live = true;
    void desk()
      .getMsgappNumbers(agentId)
      .then((r) => {
        if (!live) return;
        if (r.ok) setNumbers(r.value);
        else setLoadError(errorWords(r.error));
      });
    return () => {
      live = false;
    };
  }, [agentId]);

  const save = async () => {
    const checked = checkForm(MsgappPutBody, { numbers: draft });
    if (!checked.ok) return setLoadError(Object.values(checked.problems).join(' '));
    setSaving(true);
    const result = await desk().setMsgappNumbers(agentId, checked.value.numbers);
    setSaving(false);
    const store = useAgentConfigStore.getState();
    if (!result.ok) return store.noteError('numbers', result.error);
    setNumbers(result.value);
    store.setDirty('numbers', false);
    const changed = result.value.changed ?? 0;
    store.setOutcome({
      section: 'numbers',
      kind: 'saved',
      message: `Saved: ${changed} number${changed === 1 ? '' : 's'} changed.`,
    });
  };

  const taking = numbers?.numbers.filter((n) => n.takenByOther && draft.includes(n.id)) ?? [];
  return (
    <SectionFrame section="numbers" about="The business phone numbers whose customers this agent answers.">
      {loadError ? <p className="error-text">{loadError}</p> : null}
      {!numbers && !loadError ? <p className="muted">Loading numbers…</p> : null}
      {numbers && !numbers.hasWorkspace ? (
        <p className="muted">This account has no business workspace, so there are no numbers to link.</p>
      ) : null}
      {numbers && numbers.hasWorkspace ? (
        <SectionForm
          saveLabel="Save numbers"
          dirty={dirty}
          saving={saving}
          onSave={() => void save()}
          onDiscard={reset}
        >
          <fieldset className="studio-toggles">
            <legend>Numbers this agent answers</legend>
            {numbers.numbers.length === 0 ? <p className="muted">The workspace has no numbers yet.</p> : null}
            {numbers.numbers.map((n) => (
              <label key={n.id}>
                <input
                  type="checkbox"
                  checked={draft.includes(n.id)}
                  onChange={(e) =>
                    setDraft(e.target.checked ? [...draft, n.id] : draft.filter((id) => id !== n.id))
                  }
                />
                {n.label}
                {n.mine ? <span className="studio-tag ok">this agent</span> : null}
                {n.takenByOther ? <span className="studio-tag">answered by another agent</span> : null}
              </label>
            ))}
          </fieldset>
          {taking.length > 0 ? (
            <p className="studio-warning" role="alert">
              {taking.map((n) => n.label).join(', ')} {taking.length === 1 ? 'is' : 'are'} answered by another
              agent now. Saving moves {taking.length === 1 ? 'it' : 'them'} here: the other agent loses{' '}
              {taking.length === 1 ? 'it' : 'them'}.
            </p>
          ) : null}
          <p className="studio-help">Unticking a number only silences it; the pairing is kept.</p>
          {numbers.hasSales && numbers.salesUrl && /^https?:\/\//i.test(numbers.salesUrl) ? (
            <p className="studio-help">
              Need another number?{' '}
              <a href={numbers.salesUrl} target="_blank" rel="noreferrer">
                Pair a new one
              </a>
              .
            </p>
          ) : (
            <p className="studio-help">This workspace has no sales channel for pairing new numbers.</p>
          )}
        </SectionForm>
      ) : null}
      <SaveOutcome section="numbers" />
    </SectionFrame>
  );
}
