import { useEffect, useState } from 'react';
import type { AgentStartingPoint } from '../../../shared/api';
import { desk } from '../../desk';
import { useAgentsStore } from '../../stores/agents-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorLine } from '../../ui/ErrorLine';

const NAME_MAX = 64;

/**
 * A new agent: a name and, optionally, a starting point (a prompt and skills the server offers). Shown only
 * where the server makes agents (our extension); the dialog stays open with the reason when it refuses.
 */
export function NewAgentDialog(props: { onClose(): void }) {
  const [name, setName] = useState('');
  const [start, setStart] = useState('');
  const [starts, setStarts] = useState<AgentStartingPoint[]>([]);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void desk()
      .agentStartingPoints()
      .then((result) => result.ok && setStarts(result.value));
  }, []);

  const choose = (id: string) => {
    const previous = starts.find((s) => s.id === start);
    const next = starts.find((s) => s.id === id);
    // A name the person has not typed follows the starting point.
    if (next && (!name.trim() || name === previous?.name)) setName(next.name);
    setStart(id);
    setProblem('');
  };

  const create = async () => {
    const clean = name.trim();
    if (!clean) return setProblem('Give the agent a name.');
    if (clean.length > NAME_MAX) return setProblem(`Use at most ${NAME_MAX} characters for the name.`);
    setBusy(true);
    const failed = await useAgentsStore
      .getState()
      .createAgent({ name: clean, ...(start ? { startingPoint: start } : {}) });
    setBusy(false);
    if (failed) return setProblem(failed);
    props.onClose();
  };

  return (
    <ConfirmDialog
      title="New agent"
      confirmLabel={busy ? 'Creating…' : 'Create agent'}
      onCancel={props.onClose}
      onConfirm={() => void (busy ? undefined : create())}
    >
      <p className="muted small-text">Each agent has its own instructions, model, files and conversations.</p>
      <label>
        Name
        <input
          autoFocus
          value={name}
          maxLength={NAME_MAX}
          aria-invalid={problem ? true : undefined}
          onChange={(event) => {
            setName(event.target.value);
            setProblem('');
          }}
        />
      </label>
      <fieldset className="starting-points">
        <legend>Start from</legend>
        <label className="choice">
          <input type="radio" name="start" checked={start === ''} onChange={() => choose('')} />
          <span>
            <strong>Nothing</strong>
            <small>An empty agent you set up yourself.</small>
          </span>
        </label>
        {starts.map((point) => (
          <label key={point.id} className="choice">
            <input type="radio" name="start" checked={start === point.id} onChange={() => choose(point.id)} />
            <span>
              <strong>{point.name}</strong>
              <small>{point.description}</small>
            </span>
          </label>
        ))}
      </fieldset>
      <ErrorLine text={problem} />
    </ConfirmDialog>
  );
}
