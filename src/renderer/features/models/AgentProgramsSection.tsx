import { useEffect, useId, useState, type FormEvent } from 'react';
import type { AgentProgramChoice, ProgramEngine } from '../../../shared/api';
import { placeLabel, programPlaces, programPlaceWords, splitCommand } from '../../model/provider-words';
import { useModelsStore } from '../../stores/models-store';
import { codeWords } from '../../ui/code-words';
import { ErrorLine } from '../../ui/ErrorLine';

const OWN = '__own__';

/**
 * Settings → Agent programs: the ACP agent programs found on the service's computer and the place each
 * runs in, the missing ones with the line that installs each, and a form to choose what a place runs (a
 * found program, or a command of the person's: the service's owner only).
 */
export function AgentProgramsSection() {
  const id = useId();
  const programs = useModelsStore((s) => s.programs);
  const status = useModelsStore((s) => s.programsStatus);
  const error = useModelsStore((s) => s.programsError);
  const [place, setPlace] = useState<ProgramEngine>('engine-c');
  const [what, setWhat] = useState(OWN);
  const [name, setName] = useState('');
  const [line, setLine] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const [note, setNote] = useState('');
  const [open, setOpen] = useState(false);

  useEffect(() => void useModelsStore.getState().loadPrograms(), []);
  const found = programs.filter((p) => p.found);
  const missing = programs.filter((p) => !p.found);

  const save = async (choice: AgentProgramChoice, done: string) => {
    setProblem('');
    setNote('');
    setBusy(true);
    const failed = await useModelsStore.getState().setProgram(place, choice);
    setBusy(false);
    if (failed) return setProblem(failed);
    setNote(done);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (what !== OWN) {
      const program = found.find((p) => p.id === what);
      return void save({ program: what }, `${placeLabel(place)} now runs ${program?.name ?? what}.`);
    }
    if (!name.trim()) return setProblem('Give the program a name, as the studio will show it.');
    const command = splitCommand(line);
    if (!command) return setProblem('Write the command that starts the program as an ACP agent.');
    void save({ command, name: name.trim() }, `${placeLabel(place)} now runs ${name.trim()}.`);
  };

  return (
    <div className="screen-section">
      <p className="muted small-text">
        Agent programs you already use (goose, Gemini CLI, Claude Code…) can run your agents. Each one found
        on the service’s computer is offered among the studio’s engines.
      </p>
      <ErrorLine text={status === 'error' && error} />
      {status === 'loading' ? <p className="muted">Loading…</p> : null}
      {found.length > 0 ? (
        <>
          <h4>Found</h4>
          <ul className="card-list" aria-label="Programs found">
            {found.map((program) => (
              <li key={`${program.id}-${program.engine ?? ''}`} aria-label={program.name}>
                <div className="card-main">
                  <strong>{program.name}</strong>
                  <span className="muted small-text">{programPlaceWords(program)}</span>
                  <code className="small-text">{program.command.join(' ')}</code>
                  {program.needs ? (
                    <span className="muted small-text">Needs: {codeWords(program.needs)}</span>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        </>
      ) : status === 'ready' ? (
        <p className="muted">No agent program was found on the service’s computer.</p>
      ) : null}
      {missing.length > 0 ? (
        <>
          <h4>Not installed</h4>
          <ul className="card-list" aria-label="Programs not installed">
            {missing.map((program) => (
              <li key={program.id} aria-label={program.name}>
                <div className="card-main">
                  <strong>{program.name}</strong>
                  {program.install ? (
                    <span className="small-text">
                      Install: <code>{program.install}</code>
                    </span>
                  ) : null}
                  {program.needs ? (
                    <span className="muted small-text">Needs: {codeWords(program.needs)}</span>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {note && !open ? <p role="status">{note}</p> : null}
      {!open ? (
        <button
          type="button"
          onClick={() => {
            setNote('');
            setOpen(true);
          }}
        >
          Add your own command
        </button>
      ) : (
        <form className="program-form" onSubmit={submit} aria-labelledby={`${id}-title`}>
          <h4 id={`${id}-title`}>Add your own command</h4>
          <p className="muted small-text">
            Any program that speaks ACP over its standard input and output can run in one of two places. Only
            the owner of the service may set them, since they run on its computer.
          </p>
          <fieldset disabled={busy}>
            <legend>Place</legend>
            {programPlaces.map((p) => (
              <label key={p.engine}>
                <input
                  type="radio"
                  name={`${id}-place`}
                  checked={place === p.engine}
                  onChange={() => setPlace(p.engine)}
                />
                {p.label}
              </label>
            ))}
          </fieldset>
          <label className="provider-field">
            Runs
            <select value={what} disabled={busy} onChange={(e) => setWhat(e.target.value)}>
              <option value={OWN}>Your own command</option>
              {found.map((p) => (
                <option key={`${p.id}-${p.engine ?? ''}`} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          {what === OWN ? (
            <>
              <label className="provider-field">
                Name
                <input
                  value={name}
                  disabled={busy}
                  maxLength={64}
                  onChange={(e) => setName(e.target.value)}
                />
              </label>
              <label className="provider-field">
                Command
                <input
                  value={line}
                  disabled={busy}
                  spellCheck={false}
                  placeholder="my-agent --acp"
                  onChange={(e) => setLine(e.target.value)}
                />
              </label>
            </>
          ) : null}
          <div className="provider-actions">
            <button type="submit" className="primary" disabled={busy}>
              Use in this place
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() => void save({}, `${placeLabel(place)} runs what is found again.`)}
            >
              Use what is found
            </button>
            <button type="button" disabled={busy} onClick={() => setOpen(false)}>
              Close
            </button>
          </div>
          <ErrorLine text={problem} />
          {note ? <p role="status">{note}</p> : null}
        </form>
      )}
    </div>
  );
}
