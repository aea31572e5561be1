import { useId } from 'react';
import type { SyncStatus } from '../../../shared/bridge';
import { useSyncStore } from '../../stores/sync-store';
import { SyncPendingDeletes } from './SyncPendingDeletes';
import { skipWords } from './sync-words';

/** Long skip lists stay readable: the first ones, then a count. */
const SKIPPED_SHOWN = 200;

/** What needs the person: a mass deletion to confirm, conflicts to settle, files left out. */
export function SyncIssues(props: { agentId: string; status: SyncStatus }) {
  const { agentId, status } = props;
  const busy = useSyncStore((s) => s.byAgent[agentId]?.busy);
  const conflictsId = useId();
  const skippedId = useId();
  const store = useSyncStore.getState();
  const pending = status.pendingDeletes;

  return (
    <>
      {pending ? <SyncPendingDeletes agentId={agentId} pending={pending} /> : null}

      {status.conflicts.length > 0 ? (
        <section className="sync-card" aria-labelledby={conflictsId}>
          <h3 id={conflictsId}>Conflicts ({status.conflicts.length})</h3>
          <p className="muted small-text">
            These files changed on both sides. Your version stays in place and the agent&rsquo;s is saved
            beside it; nothing is uploaded until you choose. <strong>Keep mine</strong> sends yours to the
            agent; <strong>Keep theirs</strong> puts the agent&rsquo;s in place of yours;{' '}
            <strong>Keep both</strong> keeps yours under a new name beside it. Whatever is replaced stays in
            the version history.
          </p>
          <ul className="sync-list" aria-label="Conflicts">
            {status.conflicts.map((conflict) => (
              <li key={conflict.key} className="sync-conflict">
                <div className="sync-file">
                  <code>{conflict.path}</code>
                  <span className="muted small-text">
                    The agent&rsquo;s version: {conflict.remoteCopyPath}
                  </span>
                </div>
                <div className="sync-actions" role="group" aria-label={`Resolve ${conflict.path}`}>
                  {(
                    [
                      ['mine', 'Keep mine'],
                      ['theirs', 'Keep theirs'],
                      ['both', 'Keep both'],
                    ] as const
                  ).map(([choice, label]) => (
                    <button
                      key={choice}
                      type="button"
                      className="small"
                      disabled={busy === `conflict:${conflict.key}`}
                      onClick={() => void store.resolve(agentId, conflict.key, choice)}
                    >
                      {label}
                    </button>
                  ))}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {status.skipped.length > 0 ? (
        <section className="sync-card" aria-labelledby={skippedId}>
          <h3 id={skippedId}>Not synced ({status.skipped.length})</h3>
          <p className="muted small-text">
            These files stay on this computer only: they are not sent to the agent, and nothing is deleted
            because of them.
          </p>
          <ul className="sync-list" aria-label="Not synced">
            {status.skipped.slice(0, SKIPPED_SHOWN).map((skipped) => (
              <li key={`${skipped.path}:${skipped.reason}`} className="sync-file">
                <code>{skipped.path}</code>
                <span className="muted small-text">{skipWords(skipped.reason)}</span>
              </li>
            ))}
          </ul>
          {status.skipped.length > SKIPPED_SHOWN ? (
            <p className="muted small-text">and {status.skipped.length - SKIPPED_SHOWN} more.</p>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
