import { useEffect, useState } from 'react';
import type { ShellInfo, UpdateState } from '../../../shared/bridge';
import { isAccelerator } from '../../../shared/bridge/accelerator';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { useSettingsStore } from '../../stores/settings-store';
import { SettingsGroup } from './SettingsGroup';

/**
 * Tray, global shortcut, open at login and update channel: only what this shell offers, so browser mode
 * (which offers none) shows no Desktop group at all.
 */
export function DesktopSettingsSection() {
  const settings = useSettingsStore((s) => s.settings);
  const update = useSettingsStore.getState().update;
  const info = useShellInfo();
  if (!info || !(info.tray || info.openAtLogin || info.globalShortcut || info.updates)) return null;

  return (
    <SettingsGroup title="Desktop">
      {info.tray ? (
        <label className="settings-row">
          <input
            type="checkbox"
            checked={settings.closeToTray}
            onChange={(e) => void update({ closeToTray: e.target.checked })}
          />
          Keep AgentDesk running in the tray when its window is closed
        </label>
      ) : null}
      {info.openAtLogin ? (
        <label className="settings-row">
          <input
            type="checkbox"
            checked={settings.openAtLogin}
            onChange={(e) => void update({ openAtLogin: e.target.checked })}
          />
          Open AgentDesk when I log in
        </label>
      ) : null}
      {info.globalShortcut ? (
        <>
          <ShortcutField
            label="Show or hide shortcut"
            saved={settings.globalShortcut}
            save={(globalShortcut) => void update({ globalShortcut })}
          />
          <ShortcutField
            label="Quick chat shortcut"
            saved={settings.quickChatShortcut}
            save={(quickChatShortcut) => void update({ quickChatShortcut })}
          />
        </>
      ) : null}
      {info.updates ? (
        <label className="settings-row">
          Updates{' '}
          <select
            aria-label="Update channel"
            value={settings.updateChannel}
            onChange={(e) => void update({ updateChannel: e.target.value === 'beta' ? 'beta' : 'stable' })}
          >
            <option value="stable">Stable</option>
            <option value="beta">Beta (earlier, less tested)</option>
          </select>
        </label>
      ) : null}
    </SettingsGroup>
  );
}

/** One global shortcut: typed as modifiers and a key, set, or turned off. */
function ShortcutField(props: { label: string; saved: string | null; save(value: string | null): void }) {
  const [typed, setTyped] = useState(props.saved ?? '');
  const [note, setNote] = useState('');
  useEffect(() => setTyped(props.saved ?? ''), [props.saved]);
  const submit = () => {
    const value = typed.trim();
    if (value && !isAccelerator(value))
      return setNote('Write a shortcut as modifiers and one key, e.g. CommandOrControl+Shift+Space.');
    setNote('');
    props.save(value || null);
  };
  return (
    <form
      className="settings-row"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label>
        {props.label}{' '}
        <input
          type="text"
          aria-label={props.label}
          value={typed}
          placeholder="Off"
          onChange={(e) => setTyped(e.target.value)}
        />
      </label>
      <button type="submit">Set shortcut</button>
      <button type="button" onClick={() => props.save(null)}>
        Turn off
      </button>
      {note ? <p role="status">{note}</p> : null}
    </form>
  );
}

/** What this shell offers (null until the host answers). */
export function useShellInfo(): ShellInfo | null {
  const [info, setInfo] = useState<ShellInfo | null>(null);
  useEffect(() => {
    void desk()
      .getShellInfo()
      .then((result) => result.ok && setInfo(result.value));
  }, []);
  return info;
}

/** Where the app logs, and the button that shows the file where there is one. */
export function LogsLine() {
  const info = useShellInfo();
  const [note, setNote] = useState('');
  if (!info) return null;
  const showLogs = async () => {
    const result = await desk().showLogs();
    setNote(result.ok ? '' : errorWords(result.error));
  };
  return (
    <p className="muted small-text">
      {info.logFile ? `Log file: ${info.logFile}. ` : ''}
      {info.logNote}{' '}
      {info.logFile ? (
        <button type="button" onClick={() => void showLogs()}>
          Show logs
        </button>
      ) : null}
      {note ? <span role="status"> {note}</span> : null}
    </p>
  );
}

/** The About box's quiet line about updates: the last failed check stays visible here. */
export function UpdateStatusLine() {
  const [state, setState] = useState<UpdateState | null>(null);
  useEffect(() => {
    void desk()
      .getUpdateState()
      .then((result) => result.ok && setState(result.value));
    return desk().onUpdateState(setState);
  }, []);
  if (!state) return null;
  return (
    <>
      {state.phase === 'downloading' ? (
        <p className="muted small-text">
          Downloading {state.version} ({state.percent ?? 0}%).
        </p>
      ) : null}
      {state.lastError ? (
        <p className="muted small-text" aria-label="Last update check">
          The last update check failed on {new Date(state.lastError.at).toLocaleString()}:{' '}
          {state.lastError.message}
        </p>
      ) : null}
    </>
  );
}
