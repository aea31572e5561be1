import './sync.css';
import { useEffect, useId, useState } from 'react';
import type { SyncFolderStatus } from '../../../shared/bridge';
import { useAgentsStore } from '../../stores/agents-store';
import { useConversationsStore } from '../../stores/conversations-store';
import { useSyncStore } from '../../stores/sync-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useNow } from '../../ui/use-now';
import { SyncFolderChooser } from './SyncFolderChooser';
import { SyncHistory } from './SyncHistory';
import { SyncIssues } from './SyncIssues';
import { SyncNotices } from './SyncNotices';
import {
  isPausedByPerson,
  lastSyncWords,
  notStartedHint,
  unreachableWords,
  problemLines,
  progressOf,
  stateWords,
} from './sync-words';

/** One agent's sync folder, shown in place of the chat: folder, state, and what needs the person. */
export function SyncPanel(props: { agentId: string }) {
  const { agentId } = props;
  const sync = useSyncStore((s) => s.byAgent[agentId]);
  const agentName = useAgentsStore((s) => s.agents.find((a) => a.id === agentId)?.name);
  const [changing, setChanging] = useState(false);
  const titleId = useId();

  useEffect(() => useSyncStore.getState().watch(), []);
  useEffect(() => {
    setChanging(false);
    void useSyncStore.getState().load(agentId);
  }, [agentId]);
  // Switching from one conversation to another (or to a new one) means going back to the chat. The
  // first automatic pick after the list loads (from none) does not.
  useEffect(
    () =>
      useConversationsStore.subscribe((state, previous) => {
        if (state.selectedId && previous.selectedId && state.selectedId !== previous.selectedId) {
          useSyncStore.getState().closePanel();
        }
      }),
    [],
  );

  const folder = sync?.folder;
  const name = folder?.agentName || agentName || 'this agent';

  return (
    <section className="sync-panel" aria-labelledby={titleId}>
      <header className="sync-header">
        <h2 id={titleId} className="sync-title">
          Sync folder · {name}
        </h2>
        <button type="button" onClick={() => useSyncStore.getState().closePanel()}>
          Back to chat
        </button>
      </header>
      <div className="sync-body">
        <p className="muted sync-intro">
          Edit {name}&rsquo;s instructions, MCP servers, skills and workspace files in your own editor.
          AgentDesk keeps the folder and the agent in step both ways and never drops a version.
        </p>
        {sync?.error ? (
          <p className="banner error-text sync-banner" role="alert">
            {sync.error}{' '}
            <button
              type="button"
              className="link"
              onClick={() => useSyncStore.getState().clearError(agentId)}
            >
              Dismiss
            </button>
          </p>
        ) : null}
        {folder === undefined ? (
          <p className="muted" role="status">
            {sync?.loading ? 'Loading…' : ''}
          </p>
        ) : null}
        {(folder === null || changing) && sync?.defaultRoot ? (
          <SyncFolderChooser
            key={`${folder?.root ?? ''}:${sync.defaultRoot}`}
            agentId={agentId}
            defaultRoot={sync.defaultRoot}
            canPickFolder={sync.canPickFolder}
            {...(folder ? { currentRoot: folder.root } : {})}
            {...(changing ? { onCancel: () => setChanging(false), onDone: () => setChanging(false) } : {})}
          />
        ) : null}
        {folder ? (
          <SyncFolderView
            agentId={agentId}
            folder={folder}
            changing={changing}
            onChange={() => setChanging(true)}
          />
        ) : null}
      </div>
    </section>
  );
}

function SyncFolderView(props: {
  agentId: string;
  folder: SyncFolderStatus;
  changing: boolean;
  onChange(): void;
}) {
  const { agentId, folder } = props;
  const { status } = folder;
  const busy = useSyncStore((s) => s.byAgent[agentId]?.busy);
  const [confirmStop, setConfirmStop] = useState(false);
  const now = useNow(15_000);
  const store = useSyncStore.getState();
  const progress = progressOf(status);
  const problems = problemLines(status);
  const pausedByPerson = isPausedByPerson(status);
  const stopped = status.state === 'stopped';
  const notStarted = status.notStarted;

  return (
    <>
      <section className="sync-card" aria-label="Folder">
        <div className="sync-folder-row">
          <span className="sync-label">Folder</span>
          <code className="sync-root" title={folder.root}>
            {folder.root}
          </code>
        </div>
        <div className="sync-actions">
          <button
            type="button"
            disabled={busy === 'open:folder'}
            onClick={() => void store.open(agentId, 'folder')}
          >
            Open in file manager
          </button>
          <button
            type="button"
            disabled={busy === 'open:editor'}
            onClick={() => void store.open(agentId, 'editor')}
          >
            Open in editor
          </button>
          {props.changing ? null : (
            <button type="button" onClick={props.onChange}>
              Change folder…
            </button>
          )}
          <button type="button" className="danger" onClick={() => setConfirmStop(true)}>
            Stop syncing
          </button>
        </div>
      </section>

      <section className="sync-card" aria-label="Sync status">
        <div className="sync-state-row">
          <span className={`sync-dot sync-dot-${status.state}`} aria-hidden="true" />
          <p className="sync-state" role="status" aria-live="polite">
            {stateWords(status)}
          </p>
          <span className="sync-last muted">
            {status.lastSyncAt ? (
              <time
                dateTime={new Date(status.lastSyncAt).toISOString()}
                title={new Date(status.lastSyncAt).toLocaleString()}
              >
                {lastSyncWords(status.lastSyncAt, now)}
              </time>
            ) : notStarted ? null : (
              lastSyncWords(undefined, now)
            )}
          </span>
        </div>
        {progress === 'indeterminate' ? (
          <progress className="sync-progress" aria-label="Sync progress" />
        ) : progress ? (
          <progress
            className="sync-progress"
            aria-label="Sync progress"
            value={progress.value}
            max={progress.max}
          />
        ) : null}
        {status.limitation ? (
          <p className="sync-limitation" role="note">
            <strong>Upload-only:</strong> {status.limitation}
          </p>
        ) : null}
        {status.unreachable ? (
          <p className="sync-unreachable" role="alert">
            {unreachableWords(status.unreachable)}
          </p>
        ) : null}
        {problems.length > 0 ? (
          <div className="sync-problems" role="alert">
            {problems.map((line, i) => (
              <p key={i}>{line}</p>
            ))}
          </div>
        ) : null}
        {notStarted ? (
          <div className="sync-actions">
            <button
              type="button"
              className="primary"
              disabled={busy === 'sync'}
              onClick={() => void store.syncNow(agentId)}
            >
              {busy === 'sync' ? 'Trying…' : 'Try again'}
            </button>
            <span className="muted small-text">{notStartedHint(notStarted)}</span>
          </div>
        ) : (
          <div className="sync-actions">
            {pausedByPerson ? (
              <button
                type="button"
                className="primary"
                disabled={busy === 'resume'}
                onClick={() => void store.resume(agentId)}
              >
                Resume
              </button>
            ) : (
              <button
                type="button"
                disabled={stopped || busy === 'pause'}
                onClick={() => void store.pause(agentId)}
              >
                Pause
              </button>
            )}
            <button
              type="button"
              disabled={pausedByPerson || stopped || busy === 'sync'}
              onClick={() => void store.syncNow(agentId)}
            >
              Sync now
            </button>
          </div>
        )}
      </section>

      <SyncNotices status={status} />
      <SyncIssues agentId={agentId} status={status} />
      <SyncHistory agentId={agentId} />

      {confirmStop ? (
        <ConfirmDialog
          title="Stop syncing this folder?"
          confirmLabel="Stop syncing"
          danger
          onCancel={() => setConfirmStop(false)}
          onConfirm={() => void store.stop(agentId).then(() => setConfirmStop(false))}
        >
          <p>Both sides keep their files. You can choose a folder again at any time.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
