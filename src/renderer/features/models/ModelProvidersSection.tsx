import { useEffect, useState } from 'react';
import type { AccountModelProvider } from '../../../shared/api';
import { kindWords, modelName, modelsCountWords, removable, sourceWords } from '../../model/provider-words';
import { useModelsStore } from '../../stores/models-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorLine } from '../../ui/ErrorLine';
import { ProviderForm } from './ProviderForm';

/**
 * Settings → Models: each provider with where it comes from, its masked key and the models it lists, a
 * way to add one and to remove one added here.
 */
export function ModelProvidersSection() {
  const providers = useModelsStore((s) => s.providers);
  const status = useModelsStore((s) => s.providersStatus);
  const error = useModelsStore((s) => s.providersError);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<AccountModelProvider | null>(null);
  const [note, setNote] = useState('');

  useEffect(() => void useModelsStore.getState().loadProviders(), []);

  const remove = async (provider: AccountModelProvider) => {
    setRemoving(null);
    const problem = await useModelsStore.getState().removeProvider(provider.id);
    setNote(problem || `Removed ${provider.name} and its key.`);
  };

  return (
    <div className="screen-section">
      <p className="muted small-text">
        Your agents think with these providers’ models when their engine is the AgentDesk agent. Keys are kept
        encrypted by the service and shown here masked.
      </p>
      <ErrorLine text={status === 'error' && error} />
      {status === 'loading' ? <p className="muted">Loading…</p> : null}
      {status === 'ready' && providers.length === 0 ? (
        <p className="muted">No providers yet: add one to chat with a real model.</p>
      ) : null}
      {providers.length > 0 ? (
        <ul className="card-list provider-list" aria-label="Providers">
          {providers.map((provider) => (
            <li key={provider.id} aria-label={provider.name}>
              <div className="card-main">
                <strong>{provider.name}</strong>
                <span className="muted small-text">
                  {[
                    sourceWords(provider.source),
                    provider.name === kindWords(provider.kind).label ? '' : kindWords(provider.kind).label,
                    provider.maskedKey ? `key ${provider.maskedKey}` : '',
                    provider.baseUrl ?? '',
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
                <span className={`small-text${provider.problem ? ' error-text' : ' muted'}`}>
                  {modelsCountWords(provider)}
                </span>
                {provider.models.length > 0 ? (
                  <details className="provider-models">
                    <summary>Models</summary>
                    <ul aria-label={`${provider.name} models`}>
                      {provider.models.map((model) => (
                        <li key={model.id}>{modelName(model)}</li>
                      ))}
                    </ul>
                  </details>
                ) : null}
              </div>
              {removable(provider) ? (
                <button type="button" className="small" onClick={() => setRemoving(provider)}>
                  Remove
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {note ? <p role="status">{note}</p> : null}
      {adding ? (
        <ProviderForm
          onAdded={(provider) => {
            setAdding(false);
            setNote(`Added ${provider.name}: ${modelsCountWords(provider)}.`);
          }}
          onCancel={() => setAdding(false)}
        />
      ) : (
        <button
          type="button"
          onClick={() => {
            setNote('');
            setAdding(true);
          }}
        >
          Add a provider
        </button>
      )}
      {removing ? (
        <ConfirmDialog
          title={`Remove ${removing.name}?`}
          confirmLabel="Remove"
          danger
          onConfirm={() => void remove(removing)}
          onCancel={() => setRemoving(null)}
        >
          <p>
            Its key is deleted from the service. Agents that use one of its models answer with an error until
            you choose another model.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
