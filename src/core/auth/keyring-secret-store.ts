import type * as Keyring from '@napi-rs/keyring';
import { err, ok } from '../common/result';
import type { SecretStore, SecretStoreCandidate } from './secret-store';

/** The part of @napi-rs/keyring's entry API this store uses (so tests can stand in for the OS keychain). */
export interface KeyringEntry {
  getPassword(): Promise<string | null>;
  setPassword(password: string): Promise<void>;
  deletePassword(): Promise<boolean>;
}

export type KeyringEntryFactory = (service: string, account: string) => KeyringEntry | Promise<KeyringEntry>;

// Loaded on first use, so a platform without the native binary only loses the keychain, not the app.
let keyringModule: Promise<typeof Keyring> | undefined;

// The async entry runs keychain calls off the main thread, so a slow unlock prompt never freezes the app.
const osKeyringEntry: KeyringEntryFactory = async (service, account) => {
  keyringModule ??= import('@napi-rs/keyring');
  const { AsyncEntry } = await keyringModule;
  return new AsyncEntry(service, account);
};

export interface KeyringSecretStoreOptions {
  /** The keychain "service" name every key is filed under. */
  service?: string;
  createEntry?: KeyringEntryFactory;
}

const DEFAULT_SERVICE = 'AgentDesk';
const PROBE_ACCOUNT = 'agentdesk-keychain-probe';

/** The OS keychain (macOS Keychain, Windows Credential Manager, Secret Service / keyutils on Linux). */
export function createKeyringSecretStore(options: KeyringSecretStoreOptions = {}): SecretStore {
  const service = options.service ?? DEFAULT_SERVICE;
  const entry = async (key: string): Promise<KeyringEntry> =>
    (options.createEntry ?? osKeyringEntry)(service, key);
  return {
    kind: 'keychain',
    get: async (key) => (await (await entry(key)).getPassword()) ?? undefined,
    set: async (key, value) => {
      await (await entry(key)).setPassword(value);
    },
    delete: async (key) => {
      await (await entry(key)).deletePassword();
    },
  };
}

/** Offers the keychain only after a write, read and delete round trip works (a locked or absent keychain fails here). */
export function keyringCandidate(options: KeyringSecretStoreOptions = {}): SecretStoreCandidate {
  return {
    kind: 'keychain',
    async open() {
      const store = createKeyringSecretStore(options);
      const probe = `probe-${Date.now()}`;
      try {
        await store.set(PROBE_ACCOUNT, probe);
        const readBack = await store.get(PROBE_ACCOUNT);
        await store.delete(PROBE_ACCOUNT);
        if (readBack !== probe) return err('The system keychain did not keep a test value.');
        return ok(store);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return err(`The system keychain can't be used here (${reason}).`);
      }
    },
  };
}
