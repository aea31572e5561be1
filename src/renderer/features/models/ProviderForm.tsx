import { useId, useState, type FormEvent } from 'react';
import type { AccountModelProvider, ProviderKind } from '../../../shared/api';
import { kindWords, providerKinds } from '../../model/provider-words';
import { useModelsStore } from '../../stores/models-store';
import { ErrorLine } from '../../ui/ErrorLine';

/**
 * "Add a provider": a kind, its key and, where the kind needs one, a base URL. The service tries the key
 * by listing the provider's models and keeps it only if that works; a refusal shows in its words. The key
 * typed here leaves the page once and the field is emptied whatever the answer.
 */
export function ProviderForm(props: { onAdded(provider: AccountModelProvider): void; onCancel?(): void }) {
  const id = useId();
  const [kind, setKind] = useState<ProviderKind>('anthropic');
  const [key, setKey] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const words = kindWords(kind);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem('');
    if (words.needsKey && !key.trim()) return setProblem(`Paste the key ${words.label} gave you.`);
    if (words.needsBaseUrl && !baseUrl.trim()) return setProblem('Give the server’s address.');
    if (baseUrl.trim() && !/^https?:\/\/\S+$/i.test(baseUrl.trim()))
      return setProblem('The address starts with http:// or https://.');
    setBusy(true);
    const outcome = await useModelsStore.getState().addProvider({
      kind,
      ...(words.needsKey || key.trim() ? { key: key.trim() } : {}),
      ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
    });
    setKey('');
    setBusy(false);
    if ('problem' in outcome) return setProblem(outcome.problem);
    setBaseUrl('');
    props.onAdded(outcome.provider);
  };

  return (
    <form className="provider-form" onSubmit={(e) => void submit(e)} aria-label="Add a provider">
      <fieldset className="provider-kinds" disabled={busy}>
        <legend>Kind of provider</legend>
        {providerKinds.map((k) => (
          <label key={k.kind}>
            <input
              type="radio"
              name={`${id}-kind`}
              checked={kind === k.kind}
              onChange={() => setKind(k.kind)}
            />
            {k.label}
          </label>
        ))}
      </fieldset>
      <p className="muted small-text" id={`${id}-hint`}>
        {words.hint}
      </p>
      {words.needsKey ? (
        <label className="provider-field">
          Key
          <input
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={key}
            disabled={busy}
            aria-describedby={`${id}-hint`}
            onChange={(e) => setKey(e.target.value)}
          />
        </label>
      ) : null}
      <label className="provider-field">
        {words.needsBaseUrl ? 'Base URL' : 'Base URL (optional)'}
        <input
          type="url"
          inputMode="url"
          spellCheck={false}
          value={baseUrl}
          disabled={busy}
          placeholder={kind === 'ollama' ? 'http://127.0.0.1:11434' : 'https://…/v1'}
          onChange={(e) => setBaseUrl(e.target.value)}
        />
      </label>
      <div className="provider-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Checking the key…' : 'Add provider'}
        </button>
        {props.onCancel ? (
          <button type="button" onClick={props.onCancel} disabled={busy}>
            Cancel
          </button>
        ) : null}
      </div>
      <ErrorLine text={problem} />
    </form>
  );
}
