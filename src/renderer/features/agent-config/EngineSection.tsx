import { useState } from 'react';
import { Engine, type AgentConfiguration } from '../../../shared/api';
import { useAgentConfigStore } from '../../stores/agent-config-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FieldProblem, SaveOutcome } from './SaveOutcome';
import { SectionFrame } from './SectionFrame';
import { engineWords, offeredEngines, onYourModels } from '../../model/agent-words';
import { groupModels, modelName } from '../../model/provider-words';
import { useScreenStore } from '../../stores/screen-store';
import { MissingPrograms } from './MissingPrograms';

/** The engine (switched only after a confirmation that says what moves and what stays) and the model. */
export function EngineSection(props: { config: AgentConfiguration }) {
  const { config } = props;
  const current = config.engine ?? '';
  const ownModels = onYourModels(config, current);
  const [asked, setAsked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const modelProblem = useAgentConfigStore((s) =>
    s.outcome?.section === 'engine' && s.outcome.field === 'model' ? s.outcome.message : undefined,
  );

  const switchTo = async (engine: string) => {
    setAsked(null);
    setBusy(true);
    await useAgentConfigStore.getState().save('engine', { engine: Engine.parse(engine) });
    setBusy(false);
  };
  const pickModel = async (model: string) => {
    if (!model || model === config.model) return;
    setBusy(true);
    await useAgentConfigStore.getState().save('engine', { model });
    setBusy(false);
  };

  return (
    <SectionFrame section="engine" about="The engine runs the agent; the model is what it thinks with.">
      <fieldset className="studio-choice" disabled={busy}>
        <legend>Engine</legend>
        {offeredEngines(config, Engine.options, current).map((engine) => {
          const about = engineWords(config, engine);
          return (
            <label key={engine}>
              <input
                type="radio"
                name="engine"
                checked={engine === current}
                onChange={() => engine !== current && setAsked(engine)}
              />
              <span>
                <strong>{about.name}</strong>{' '}
                <span className="studio-tag">{about.workspace ? 'own workspace' : 'no workspace'}</span>
                <br />
                <span className="muted">{about.description}</span>
              </span>
            </label>
          );
        })}
      </fieldset>
      <MissingPrograms />

      <div className="studio-form">
        <label htmlFor="studio-model">Model</label>
        <select
          id="studio-model"
          value={config.model ?? ''}
          disabled={busy || !config.models?.length}
          aria-describedby="studio-model-help studio-model-problem"
          aria-invalid={!!modelProblem}
          onChange={(e) => void pickModel(e.target.value)}
        >
          {config.models?.some((m) => m.id === config.model) ? null : (
            <option value={config.model ?? ''}>{config.model || '—'}</option>
          )}
          {ownModels
            ? groupModels(config.models ?? []).map((group) => (
                <optgroup key={group.provider} label={group.provider || 'Other'}>
                  {group.models.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.label}
                    </option>
                  ))}
                </optgroup>
              ))
            : (config.models ?? []).map((m) => (
                <option key={m.id} value={m.id}>
                  {modelName(m)}
                </option>
              ))}
        </select>
        {ownModels && !config.models?.length ? (
          <p className="studio-help">
            No models yet: add a provider (a key, or a model server you run) in{' '}
            <button type="button" className="link" onClick={() => useScreenStore.getState().show('settings')}>
              Settings → Models
            </button>
            .
          </p>
        ) : null}
        <p id="studio-model-help" className="studio-help">
          {config.hasMachine === false
            ? 'Takes effect from the next reply.'
            : 'Changing the model restarts the agent; replies in progress are interrupted.'}
        </p>
        <FieldProblem id="studio-model-problem" problem={modelProblem} />
      </div>
      <SaveOutcome section="engine" />

      {asked ? (
        <ConfirmDialog
          title={`Switch to ${engineWords(config, asked).name}?`}
          confirmLabel="Switch engine"
          onConfirm={() => void switchTo(asked)}
          onCancel={() => setAsked(null)}
        >
          <p>
            <strong>Kept:</strong> the name and prompt, skills, knowledge, channels and permissions.
          </p>
          <p>
            <strong>Stays with {engineWords(config, current).name}:</strong> the conversation memory. The new
            engine starts without it; switching back finds it again.
          </p>
          <p>The model becomes the new engine&apos;s default.</p>
          {!engineWords(config, asked).workspace ? (
            <p>
              This engine has no workspace of its own: workspace files, MCP servers, built-in tools and
              restart will not be available.
            </p>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </SectionFrame>
  );
}
