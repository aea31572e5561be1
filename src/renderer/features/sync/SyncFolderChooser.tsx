import { useId, useState } from 'react';
import { useSyncStore } from '../../stores/sync-store';

/**
 * Where the agent's files go: a path field (prefilled with ~/AgentDesk/<agent name>), a
 * "Browse…" button where the host has a folder picker, and the button that starts sync.
 */
export function SyncFolderChooser(props: {
  agentId: string;
  defaultRoot: string;
  canPickFolder: boolean;
  /** The folder synced now, when changing it. */
  currentRoot?: string;
  onDone?(): void;
  onCancel?(): void;
}) {
  const { agentId, defaultRoot, canPickFolder, currentRoot } = props;
  const [path, setPath] = useState(currentRoot ?? defaultRoot);
  const busy = useSyncStore((s) => s.byAgent[agentId]?.busy);
  const fieldId = useId();
  const hintId = useId();
  const store = useSyncStore.getState();

  const browse = async () => {
    const picked = await store.pick(agentId, path || defaultRoot);
    if (picked) setPath(picked);
  };

  return (
    <form
      className="sync-card sync-chooser"
      aria-label={currentRoot ? 'Change the sync folder' : 'Choose a sync folder'}
      onSubmit={(event) => {
        event.preventDefault();
        void store.choose(agentId, path.trim() || undefined).then((ok) => ok && props.onDone?.());
      }}
    >
      <label htmlFor={fieldId} className="sync-label">
        Folder path
      </label>
      <div className="sync-path-row">
        <input
          id={fieldId}
          className="sync-path"
          value={path}
          spellCheck={false}
          autoComplete="off"
          aria-describedby={hintId}
          onChange={(event) => setPath(event.target.value)}
        />
        {canPickFolder ? (
          <button type="button" onClick={() => void browse()} disabled={busy === 'pick'}>
            Browse…
          </button>
        ) : null}
      </div>
      <p id={hintId} className="muted small-text">
        {canPickFolder
          ? 'Pick a folder or type its full path.'
          : 'Type the full path of a folder on this computer (~ means your home folder).'}{' '}
        It is created if needed; files already in it are merged, never overwritten.
      </p>
      <div className="sync-actions">
        <button type="submit" className="primary" disabled={busy === 'choose'}>
          {busy === 'choose'
            ? 'Starting sync…'
            : currentRoot
              ? 'Sync this folder instead'
              : 'Sync this folder'}
        </button>
        {props.onCancel ? (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
