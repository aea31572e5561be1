import { join } from 'node:path';
import type { SafeStorage } from 'electron';
import { encryptedFileCandidate, type StringCipher } from '../core/auth/encrypted-file-secret-store';
import { keyringCandidate } from '../core/auth/keyring-secret-store';
import {
  chooseSecretStore,
  type ChosenSecretStore,
  type SecretStoreCandidate,
} from '../core/auth/secret-store';

export const BASIC_TEXT_WARNING =
  'Your Linux desktop offers no password manager to AgentDesk, so your sign-in is saved with weak protection ' +
  '(Electron "basic_text"). Install or unlock a keyring (for example GNOME Keyring or KWallet) to protect it.';

type SafeStoragePart = Pick<
  SafeStorage,
  'encryptStringAsync' | 'decryptStringAsync' | 'isAsyncEncryptionAvailable' | 'getSelectedStorageBackend'
>;

/** Electron's async safeStorage as the cipher the encrypted-file store expects. */
export function safeStorageCipher(safeStorage: SafeStoragePart): StringCipher {
  return {
    encryptString: async (plain) => new Uint8Array(await safeStorage.encryptStringAsync(plain)),
    decryptString: async (encrypted) => (await safeStorage.decryptStringAsync(Buffer.from(encrypted))).result,
  };
}

/** The safeStorage fallback, warning visibly when Linux picked the `basic_text` backend. */
export function safeStorageCandidate(
  safeStorage: SafeStoragePart,
  options: { userDataDir: string; platform: NodeJS.Platform },
): SecretStoreCandidate {
  const basicText = options.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text';
  return encryptedFileCandidate({
    kind: 'safe-storage',
    filePath: join(options.userDataDir, 'secrets.json'),
    cipher: safeStorageCipher(safeStorage),
    isAvailable: () => safeStorage.isAsyncEncryptionAvailable(),
    unavailableReason: 'Electron safeStorage encryption is not available on this computer.',
    ...(basicText ? { warning: BASIC_TEXT_WARNING } : {}),
  });
}

/** The OS keychain first, then safeStorage; with neither, memory only (with a warning), never plain text. */
export function chooseDesktopSecretStore(
  safeStorage: SafeStoragePart,
  options: { userDataDir: string; platform: NodeJS.Platform },
  keychain: SecretStoreCandidate = keyringCandidate(),
): Promise<ChosenSecretStore> {
  return chooseSecretStore([keychain, safeStorageCandidate(safeStorage, options)]);
}
