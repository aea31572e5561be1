import type { SecretStoreState } from '../../../shared/bridge';
import { useSessionStore } from '../../stores/session-store';
import { useSettingsStore } from '../../stores/settings-store';
import { MemorySettingsSection } from './MemorySettingsSection';

/** Where the person's sign-in really is kept on this machine, as the host reports it (no "tokens": a
 * person's word is their sign-in). */
const signInWords: Record<SecretStoreState['kind'], string> = {
  keychain: 'Your sign-in is kept in the system keychain, never in this folder.',
  'safe-storage': 'Your sign-in is kept encrypted by the operating system, never in plain text.',
  memory:
    'This computer offers no keychain here, so your sign-in is kept in memory only and never written to disk: you sign in again each time AgentDesk starts (on This computer, one click and no password).',
};

/** Where AgentDesk keeps its data and the person's sign-in, and the chat memory. */
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
      <section className="screen-section" aria-label="Your sign-in">
        <h4>Your sign-in</h4>
        <p className="small-text">{secrets ? signInWords[secrets.kind] : '…'}</p>
        {/* The memory-only warning says what the line above already says: show it only for the others. */}
        {secrets?.warning && secrets.kind !== 'memory' ? (
          <p className="muted small-text">{secrets.warning}</p>
        ) : null}
      </section>
      <MemorySettingsSection />
    </>
  );
}
