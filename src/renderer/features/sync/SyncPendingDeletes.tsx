import { useId, useState } from 'react';
import type { SyncStatus } from '../../../shared/bridge';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { useSyncStore } from '../../stores/sync-store';
import { pendingDeleteWords } from './sync-words';

/**
 * A sync that would delete many files waits for the person: confirm, or (when the files went from
 * this folder) have them back from the agent instead. The new status arrives through onSyncStatus.
 */
export function SyncPendingDeletes(props: {
  agentId: string;
  pending: NonNullable<SyncStatus['pendingDeletes']>;
}) {
  const { agentId, pending } = props;
  const busy = useSyncStore((s) => s.byAgent[agentId]?.busy);
  const [bringing, setBringing] = useState(false);
  const [error, setError] = useState('');
  const titleId = useId();
  const files = pending.deletes === 1 ? 'file' : 'files';

  const bringBack = async () => {
    setBringing(true);
    setError('');
    const result = await desk().bringBackSyncDeletes(agentId);
    setBringing(false);
    if (!result.ok) setError(errorWords(result.error));
  };

  return (
    <section className="sync-card sync-deletes" role="alert" aria-labelledby={titleId}>
      <h3 id={titleId}>Confirm deletions</h3>
      <p>{pendingDeleteWords(pending)}</p>
      <p className="muted small-text">
        {pending.side === 'local'
          ? 'Files deleted here go to the trash.'
          : `If you did not mean to delete them, bring them back: the agent's copies are put in the folder again.`}
      </p>
      <div className="sync-actions">
        <button
          type="button"
          className="danger"
          disabled={busy === 'deletes' || bringing}
          onClick={() => void useSyncStore.getState().confirmDeletes(agentId)}
        >
          Confirm: delete {pending.deletes} {files}
        </button>
        {pending.side === 'remote' ? (
          <button type="button" className="primary" disabled={bringing} onClick={() => void bringBack()}>
            {bringing ? 'Bringing them back…' : `Bring the ${pending.deletes} ${files} back`}
          </button>
        ) : null}
      </div>
      {error ? (
        <p className="error-text small-text" role="status">
          {error}
        </p>
      ) : null}
    </section>
  );
}
