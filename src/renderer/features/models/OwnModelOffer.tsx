import './models.css';
import { useEffect, useId, useState } from 'react';
import type { AccountModelProvider } from '../../../shared/api';
import { agentAbout } from '../../../shared/api/agent-about';
import { Engine } from '../../../shared/api/common';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { agentModelId, modelName } from '../../model/provider-words';
import { useAgentsStore } from '../../stores/agents-store';
import { useModelsStore } from '../../stores/models-store';
import { ErrorLine } from '../../ui/ErrorLine';
import { useServerOffers } from '../../ui/use-server-offers';
import { ProviderForm } from './ProviderForm';

const SKIPPED = 'agentdesk.own-model-offer.skipped';

function skippedBefore(): boolean {
  try {
    return localStorage.getItem(SKIPPED) === '1';
  } catch {
    return false;
  }
}

/**
 * The welcome's "Use your own model": add a provider, choose one of its models, and the agent switches
 * to the engine that thinks with the person's models (the spec's PATCH of `engine` and `model`). Shown
 * only where the server offers providers, while the agent is not on them yet and no provider of the
 * person's lists a model;
 * "Not now" keeps the demo agent and is remembered.
 */
export function OwnModelOffer(props: { agentId: string; agentName: string }) {
  const { agentId, agentName } = props;
  const id = useId();
  const offered = useServerOffers('listModelProviders');
  const config = useAgentsStore((s) => s.configs[agentId]);
  const providers = useModelsStore((s) => s.providers);
  const status = useModelsStore((s) => s.providersStatus);
  const [step, setStep] = useState<'offer' | 'add' | 'choose'>('offer');
  const [added, setAdded] = useState<AccountModelProvider | null>(null);
  const [model, setModel] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const [skipped, setSkipped] = useState(skippedBefore);

  useEffect(() => {
    if (offered && status === 'idle') void useModelsStore.getState().loadProviders();
  }, [offered, status]);

  const modelEngine = agentAbout(config)?.engines.find((e) => e.onYourModels && e.offered !== false);
  if (!offered || !modelEngine || skipped || config?.engine === modelEngine.id) return null;
  // A provider that lists no models (a key in the environment the provider refuses, an OLLAMA_HOST with
  // nothing running there) leaves the agent on the demo agent: the offer stays, and says why.
  const unusable = providers.filter((p) => p.models.length === 0);
  if (step === 'offer' && (status !== 'ready' || unusable.length < providers.length)) return null;

  const skip = () => {
    try {
      localStorage.setItem(SKIPPED, '1');
    } catch {
      // Storage refused: skipped for this window only.
    }
    setSkipped(true);
  };

  const use = async () => {
    if (!added || !model) return;
    setBusy(true);
    setProblem('');
    const chosen = agentModelId(useModelsStore.getState().providers, added.id, model);
    const engine = Engine.parse(modelEngine.id);
    const saved = await desk().patchAgentConfig(agentId, { engine, model: chosen });
    setBusy(false);
    if (!saved.ok) return setProblem(errorWords(saved.error));
    await useAgentsStore.getState().loadConfig(agentId);
  };

  return (
    <section className="own-model-offer" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Use your own model</h3>
      {step === 'offer' ? (
        <>
          <p className="muted">
            {agentName} runs on the demo agent, which answers by rule. Add a key from Anthropic, OpenAI,
            Google or OpenRouter, or a model server you run (Ollama, LM Studio…), and {agentName} thinks with
            your model.
          </p>
          {unusable.map((p) => (
            <p key={p.id} className="muted">
              {p.problem ?? `${p.name} lists no models.`}
            </p>
          ))}
          <div className="provider-actions">
            <button type="button" className="primary" onClick={() => setStep('add')}>
              Use your own model
            </button>
            <button type="button" onClick={skip}>
              Not now
            </button>
          </div>
        </>
      ) : step === 'add' ? (
        <ProviderForm
          onAdded={(provider) => {
            setAdded(provider);
            setModel(provider.models[0]?.id ?? '');
            setStep('choose');
          }}
          onCancel={() => setStep('offer')}
        />
      ) : added && added.models.length > 0 ? (
        <form
          className="provider-form"
          onSubmit={(event) => {
            event.preventDefault();
            void use();
          }}
        >
          <label className="provider-field">
            Model from {added.name}
            <select value={model} disabled={busy} onChange={(e) => setModel(e.target.value)}>
              {added.models.map((m) => (
                <option key={m.id} value={m.id}>
                  {modelName(m)}
                </option>
              ))}
            </select>
          </label>
          <div className="provider-actions">
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Switching…' : 'Use this model'}
            </button>
            <button type="button" disabled={busy} onClick={skip}>
              Not now
            </button>
          </div>
          <ErrorLine text={problem} />
        </form>
      ) : (
        <p role="status">
          {added?.problem ?? `${added?.name ?? 'The provider'} lists no models yet.`} You can choose a model
          later in Configure agent, under Engine and model.
        </p>
      )}
    </section>
  );
}
