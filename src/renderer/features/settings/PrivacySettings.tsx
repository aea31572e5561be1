import type { SecretStoreState } from '../../../shared/bridge';
import { useSessionStore } from '../../stores/session-store';
import { useSettingsStore } from '../../stores/settings-store';
import { MemorySettingsSection } from './MemorySettingsSection';

/** Where sign-in tokens really are on this machine, as the host reports it. */
const tokenWords: Record<SecretStoreState['kind'], string> = {
  keychain: 'Sign-in tokens are kept in the system keychain, never in this folder.',
  'safe-storage': 'Sign-in tokens are kept encrypted by the operating system, never in plain text.',
  memory:
    'This computer offers no keychain here, so sign-in tokens are kept in memory only: you sign in again after AgentDesk restarts. They are never written to disk.',
};

/** Where AgentDesk keeps its data and the sign-in tokens, and the chat memory. */
export function PrivacySettings() {
  const info = useSettingsStore((s) => s.info);
  const secrets = useSessionStore((s) => s.session?.secretStore);
  return (
    <>
      <section className="screen-section" aria-label="Data folder">
        <h4>Where AgentDesk keeps its data</h4>
        <p>
          <span className="path">{info?.dataDir ?? '…'}</span>
        </p>
        <p className="muted small-text">Saved servers, settings and sync state.</p>
      </section>
      <section className="screen-section" aria-label="Sign-in tokens">
        <h4>Sign-in tokens</h4>
        <p className="small-text">{secrets ? tokenWords[secrets.kind] : '…'}</p>
        {/* The memory-only warning says what the line above already says: show it only for the others. */}
        {secrets?.warning && secrets.kind !== 'memory' ? (
          <p className="muted small-text">{secrets.warning}</p>
        ) : null}
      </section>
      <MemorySettingsSection />
    </>
  );
}
