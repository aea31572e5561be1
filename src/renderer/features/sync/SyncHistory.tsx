import { useId, useState } from 'react';
import type { SyncVersion } from '../../../shared/bridge';
import { useSyncStore } from '../../stores/sync-store';
import { useNow } from '../../ui/use-now';
import { SyncHistorySize } from './SyncHistorySize';
import { versionWords } from './sync-words';

/** Long histories stay readable: the newest versions first. */
const VERSIONS_SHOWN = 100;

/**
 * The folder's version history: every version the sync kept before it overwrote or deleted it,
 * on either side, with its time and whose it was; any one can be put back.
 */
export function SyncHistory(props: { agentId: string }) {
  const { agentId } = props;
  const versions = useSyncStore((s) => s.byAgent[agentId]?.versions);
  const busy = useSyncStore((s) => s.byAgent[agentId]?.busy);
  const [filter, setFilter] = useState('');
  const [restored, setRestored] = useState('');

  const now = useNow(30_000);
  const titleId = useId();
  const filterId = useId();
  const store = useSyncStore.getState();
  const shown = (versions ?? []).filter((v) => v.path.toLowerCase().includes(filter.trim().toLowerCase()));

  return (
    <section className="sync-card sync-history" aria-labelledby={titleId}>
      <h3 id={titleId}>Version history</h3>
      <p className="muted small-text">
        Before the sync overwrites or deletes a version, here or on the agent, it keeps it here for 30 days.
      </p>
      <SyncHistorySize agentId={agentId} />
      {versions === undefined ? (
        <div className="sync-actions">
          <button
            type="button"
            disabled={busy === 'versions'}
            onClick={() => void store.loadVersions(agentId)}
          >
            Show kept versions
          </button>
        </div>
      ) : (
        <>
          <div className="sync-history-use">
            <label htmlFor={filterId} className="sync-label">
              Find a file
            </label>
            <button
              type="button"
              className="small"
              disabled={busy === 'versions'}
              onClick={() => void store.loadVersions(agentId)}
            >
              Refresh
            </button>
          </div>
          <input
            id={filterId}
            type="search"
            value={filter}
            placeholder="work/notes.md"
            onChange={(event) => setFilter(event.target.value)}
          />
          {restored ? (
            <p className="muted small-text" role="status">
              {restored}
            </p>
          ) : null}
          {shown.length === 0 ? (
            <p className="muted">
              {versions.length === 0 ? 'No versions kept yet.' : 'No kept version matches.'}
            </p>
          ) : (
            <ul className="sync-list" aria-label="Kept versions">
              {shown.slice(0, VERSIONS_SHOWN).map((version: SyncVersion) => (
                <li key={version.id} className="sync-version">
                  <code>{version.path}</code>
                  <span className="muted small-text">{versionWords(version, now)}</span>
                  <button
                    type="button"
                    aria-label={`Restore ${version.path}, ${versionWords(version, now)}`}
                    disabled={busy === `restore:${version.id}`}
                    onClick={() => {
                      setRestored('');
                      void store.restoreVersion(agentId, version.id).then(() => {
                        // A failure is said in the panel's banner.
                        if (!useSyncStore.getState().byAgent[agentId]?.error) {
                          setRestored(
                            `${version.path} is back as it was (${versionWords(version, now)}); the sync sends it to the agent. The version it replaced is kept here too.`,
                          );
                        }
                      });
                    }}
                  >
                    Restore
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
