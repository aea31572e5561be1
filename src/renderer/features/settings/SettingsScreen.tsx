import { useEffect, useState } from 'react';
import type { AppSettings } from '../../../shared/bridge';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { useSettingsStore } from '../../stores/settings-store';
import { ErrorLine } from '../../ui/ErrorLine';
import { DesktopSettingsSection, UpdateStatusLine } from './DesktopSettingsSection';
import { MemorySettingsSection } from './MemorySettingsSection';
import { PageNotificationsNote } from './PageNotificationsNote';

const themes: { value: AppSettings['theme']; label: string }[] = [
  { value: 'system', label: 'Same as the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

const modes: { value: AppSettings['permissionMode']; label: string; meaning: string }[] = [
  {
    value: 'preguntar',
    label: 'Ask me first',
    meaning: 'The agent stops and asks before it writes files or runs tools; you answer in the chat.',
  },
  {
    value: 'auto',
    label: 'Let the service decide',
    meaning: 'The agent acts without asking, within what the service allows it.',
  },
];

/** Theme, notifications, default permission mode, sync root, data folder, version. Saved across restarts. */
export function SettingsScreen() {
  const settings = useSettingsStore((s) => s.settings);
  const info = useSettingsStore((s) => s.info);
  const error = useSettingsStore((s) => s.error);
  const [root, setRoot] = useState(settings.syncRoot ?? '');
  const [updateNote, setUpdateNote] = useState('');
  const update = useSettingsStore.getState().update;

  useEffect(() => setRoot(settings.syncRoot ?? ''), [settings.syncRoot]);

  const checkUpdates = async () => {
    setUpdateNote('Checking…');
    const result = await desk().checkForUpdates();
    setUpdateNote(result.ok ? result.value.message : errorWords(result.error));
  };

  return (
    <section className="screen" aria-label="Settings">
      <header className="screen-header">
        <h2>Settings</h2>
      </header>
      <div className="screen-body">
        <ErrorLine text={error} />
        <fieldset className="screen-section settings-choices">
          <legend>
            <h3>Theme</h3>
          </legend>
          {themes.map((theme) => (
            <label key={theme.value}>
              <input
                type="radio"
                name="theme"
                checked={settings.theme === theme.value}
                onChange={() => void update({ theme: theme.value })}
              />
              {theme.label}
            </label>
          ))}
        </fieldset>
        <section className="screen-section" aria-label="Notifications">
          <h3>Notifications</h3>
          <label className="settings-row">
            <input
              type="checkbox"
              checked={settings.notifications}
              onChange={(e) => void update({ notifications: e.target.checked })}
            />
            Notify me when a reply finishes while AgentDesk is in the background
          </label>
          {settings.notifications ? <PageNotificationsNote /> : null}
        </section>
        <fieldset className="screen-section settings-choices">
          <legend>
            <h3>Permissions for new messages</h3>
          </legend>
          {modes.map((mode) => (
            <label key={mode.value}>
              <input
                type="radio"
                name="permission-mode"
                checked={settings.permissionMode === mode.value}
                onChange={() => void update({ permissionMode: mode.value })}
              />
              <span>
                <strong>{mode.label}</strong> <span className="muted">— {mode.meaning}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <section className="screen-section" aria-label="Sync folders">
          <h3>Sync folders</h3>
          <p className="muted">New synced folders go here, one per agent. Empty: ~/AgentDesk.</p>
          <form
            className="settings-row"
            onSubmit={(event) => {
              event.preventDefault();
              void update({ syncRoot: root.trim() || null });
            }}
          >
            <input
              type="text"
              aria-label="Default sync root"
              value={root}
              placeholder={info ? info.defaultSyncRoot : '~/AgentDesk'}
              onChange={(e) => setRoot(e.target.value)}
            />
            <button type="submit">Save</button>
          </form>
        </section>
        <DesktopSettingsSection />
        <section className="screen-section" aria-label="Data folder">
          <h3>Where AgentDesk keeps its data</h3>
          <p>
            <span className="path">{info?.dataDir ?? '…'}</span>
          </p>
          <p className="muted small-text">
            Saved servers, settings and sync state. Sign-in tokens are kept in the system keychain, never
            here.
          </p>
        </section>
        <MemorySettingsSection />
        <section className="screen-section" aria-label="Version">
          <h3>Version</h3>
          <p>AgentDesk {info?.version ?? '…'}</p>
          {info?.canCheckForUpdates ? (
            <button type="button" onClick={() => void checkUpdates()}>
              Check for updates
            </button>
          ) : (
            <p className="muted small-text">Updates are checked by the desktop app.</p>
          )}
          {updateNote ? <p role="status">{updateNote}</p> : null}
          <UpdateStatusLine />
        </section>
      </div>
    </section>
  );
}
