import { useEffect } from 'react';
import { useModelsStore } from '../../stores/models-store';
import { codeWords } from '../../ui/code-words';
import { useScreenStore } from '../../stores/screen-store';
import { useServerOffers } from '../../ui/use-server-offers';

/**
 * Under the engines: the agent programs the service knows but did not find, each with the line that
 * installs it and what it needs (our extension `listAgentPrograms`; nothing on a server without it).
 */
export function MissingPrograms() {
  const offered = useServerOffers('listAgentPrograms');
  const programs = useModelsStore((s) => s.programs);
  const missing = programs.filter((p) => !p.found && p.install);
  useEffect(() => {
    if (offered) void useModelsStore.getState().loadPrograms();
  }, [offered]);
  if (!offered || missing.length === 0) return null;
  return (
    <details className="studio-missing-programs">
      <summary>More engines: agent programs you can install ({missing.length})</summary>
      <ul aria-label="Agent programs not installed">
        {missing.map((program) => (
          <li key={program.id}>
            <strong>{program.name}</strong>: <code>{program.install}</code>
            {program.needs ? <span className="muted"> Needs: {codeWords(program.needs)}</span> : null}
          </li>
        ))}
      </ul>
      <p className="studio-help">
        Once one is installed, AgentDesk offers it among the engines.{' '}
        <button type="button" className="link" onClick={() => useScreenStore.getState().show('settings')}>
          Agent programs in Settings
        </button>
      </p>
    </details>
  );
}
