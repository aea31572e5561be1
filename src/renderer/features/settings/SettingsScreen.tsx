import { useEffect, useState, type ReactNode } from 'react';
import type { AppSettings } from '../../../shared/bridge';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { useSettingsStore } from '../../stores/settings-store';
import { ErrorLine } from '../../ui/ErrorLine';
import { DesktopSettingsSection, LogsLine, UpdateStatusLine } from './DesktopSettingsSection';
import { NotificationsSettings } from './NotificationsSettings';
import { PermissionRulesSettings } from './PermissionRulesSettings';
import { PrivacySettings } from './PrivacySettings';
import { RadioChoices, SettingsGroup } from './SettingsGroup';

const themes: { value: AppSettings['theme']; label: string; meaning?: string }[] = [
  { value: 'system', label: 'Same as the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

const modes: { value: AppSettings['permissionMode']; label: string; meaning?: string }[] = [
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

/**
 * Settings in groups: Appearance, Chat, Notifications, Privacy and sign-in, Desktop (only where the
 * shell offers it), About. Each says what is true on this machine. Saved across restarts. `children`: the
 * groups other features add after Chat (Models, Agent programs), composed by PersonScreen.
 */
export function SettingsScreen(props: { children?: ReactNode }) {
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
        <SettingsGroup title="Appearance">
          <RadioChoices
            legend="Theme"
            name="theme"
            options={themes}
            value={settings.theme}
            onChange={(theme) => void update({ theme })}
          />
        </SettingsGroup>
        <SettingsGroup title="Chat">
          <RadioChoices
            legend="Permissions for new messages"
            name="permission-mode"
            options={modes}
            value={settings.permissionMode}
            onChange={(permissionMode) => void update({ permissionMode })}
          />
          <PermissionRulesSettings />
        </SettingsGroup>
        {props.children}
        <SettingsGroup title="Sync">
          <section className="screen-section" aria-label="Sync folders">
            <h4>Sync folders</h4>
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
        </SettingsGroup>
        <SettingsGroup title="Notifications">
          <NotificationsSettings />
        </SettingsGroup>
        <SettingsGroup title="Privacy and sign-in">
          <PrivacySettings />
        </SettingsGroup>
        <DesktopSettingsSection />
        <SettingsGroup title="About">
          <section className="screen-section" aria-label="Version">
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
          <LogsLine />
        </SettingsGroup>
      </div>
    </section>
  );
}
