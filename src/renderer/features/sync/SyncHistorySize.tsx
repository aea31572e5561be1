import { useCallback, useEffect, useId, useState } from 'react';
import type { SyncHistoryUse } from '../../../shared/bridge';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { useSyncStore } from '../../stores/sync-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { historyUseWords, parseHistoryCap, sizeWords } from './sync-words';

/**
 * How much the folder's version history holds and its size cap ("Using 12 MB of 1 GB"), with a
 * way to change the cap. Shrinking it below what is kept asks first: the oldest versions go at once.
 * The cap is the folder's, shared with `agentdesk sync history <folder> --cap <MB>`.
 */
export function SyncHistorySize(props: { agentId: string }) {
  const { agentId } = props;
  const [use, setUse] = useState<SyncHistoryUse | null>(null);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [saved, setSaved] = useState('');
  const [saving, setSaving] = useState(false);
  const [shrinkTo, setShrinkTo] = useState<number | null>(null);
  // Kept versions come with syncs and restores: the figure follows them.
  const lastSyncAt = useSyncStore((s) => s.byAgent[agentId]?.folder?.status.lastSyncAt);
  const versions = useSyncStore((s) => s.byAgent[agentId]?.versions);
  const fieldId = useId();
  const errorId = useId();

  const load = useCallback(async () => {
    const result = await desk().getSyncHistoryUse(agentId);
    if (result.ok) setUse(result.value);
    else setError(errorWords(result.error));
  }, [agentId]);
  useEffect(() => void load(), [load, lastSyncAt, versions]);

  const save = async (bytes: number) => {
    setSaving(true);
    const result = await desk().setSyncHistoryCap(agentId, bytes);
    setSaving(false);
    setShrinkTo(null);
    if (!result.ok) return setError(errorWords(result.error));
    setUse(result.value);
    setEditing(false);
    setSaved(`The history now keeps at most ${sizeWords(result.value.capBytes)}.`);
    // A smaller cap may have let old versions go: the list shows what is left.
    if (useSyncStore.getState().byAgent[agentId]?.versions)
      await useSyncStore.getState().loadVersions(agentId);
  };

  const submit = () => {
    const parsed = parseHistoryCap(text);
    if ('error' in parsed) return setError(parsed.error);
    setError('');
    if (use && parsed.bytes < use.usedBytes) setShrinkTo(parsed.bytes);
    else void save(parsed.bytes);
  };

  return (
    <div className="sync-history-size">
      <p className="sync-history-use">
        <span>{use ? historyUseWords(use) : 'Reading the history’s size…'}</span>
        {use && !editing ? (
          <button
            type="button"
            className="small"
            onClick={() => {
              setText(String(Math.round(use.capBytes / 1024 / 1024)));
              setSaved('');
              setEditing(true);
            }}
          >
            Change size cap…
          </button>
        ) : null}
      </p>
      {editing ? (
        <form
          className="sync-cap-form"
          aria-label="History size cap"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <label htmlFor={fieldId} className="sync-label">
            Keep at most (MB)
          </label>
          <div className="sync-path-row">
            <input
              id={fieldId}
              inputMode="numeric"
              value={text}
              autoComplete="off"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              onChange={(event) => setText(event.target.value)}
            />
            <button type="submit" className="primary" disabled={saving}>
              {saving ? 'Saving…' : 'Save'}
            </button>
            <button
              type="button"
              onClick={() => {
                setEditing(false);
                setError('');
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {error ? (
        <p id={errorId} className="error-text small-text" role="alert">
          {error}
        </p>
      ) : null}
      {saved ? (
        <p className="muted small-text" role="status">
          {saved}
        </p>
      ) : null}
      {shrinkTo !== null && use ? (
        <ConfirmDialog
          title="Make the version history smaller?"
          confirmLabel={`Keep at most ${sizeWords(shrinkTo)}`}
          danger
          onCancel={() => setShrinkTo(null)}
          onConfirm={() => void save(shrinkTo)}
        >
          <p>
            The history holds {sizeWords(use.usedBytes)} now. The oldest kept versions are deleted at once
            until it fits in {sizeWords(shrinkTo)}; they cannot be restored afterwards.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
