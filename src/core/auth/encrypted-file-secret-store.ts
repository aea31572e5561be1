import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { err, ok } from '../common/result';
import type { SecretStore, SecretStoreCandidate } from './secret-store';

/**
 * What an encrypting backend must offer. main/ adapts Electron's
 * `safeStorage.encryptStringAsync` / `decryptStringAsync` to this.
 */
export interface StringCipher {
  encryptString(plain: string): Promise<Uint8Array>;
  decryptString(encrypted: Uint8Array): Promise<string>;
}

export interface EncryptedFileSecretStoreOptions {
  /** Where the encrypted values live, e.g. `<userData>/secrets.json`. Only ciphertext is written. */
  filePath: string;
  cipher: StringCipher;
  /** Defaults to 'safe-storage'. */
  kind?: string;
  /** Shown to the person, e.g. when Linux safeStorage reports the `basic_text` backend. */
  warning?: string;
}

interface FileShape {
  version: 1;
  /** key -> base64 of the ciphertext */
  entries: Record<string, string>;
}

/**
 * Secrets encrypted one by one into a single JSON file. Every change rewrites the file
 * through a temp file and a rename, so the file always holds either the old or the new set.
 */
export function createEncryptedFileSecretStore(options: EncryptedFileSecretStoreOptions): SecretStore {
  const { filePath, cipher } = options;
  let queue: Promise<unknown> = Promise.resolve();
  // One operation at a time: read-modify-write cycles must not interleave.
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  const load = async (): Promise<FileShape> => {
    try {
      const parsed = JSON.parse(await readFile(filePath, 'utf8')) as Partial<FileShape>;
      return { version: 1, entries: { ...(parsed.entries ?? {}) } };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, entries: {} };
      throw error;
    }
  };

  const save = async (shape: FileShape): Promise<void> => {
    await mkdir(dirname(filePath), { recursive: true });
    const temp = `${filePath}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify(shape), { mode: 0o600 });
    await rename(temp, filePath);
  };

  return {
    kind: options.kind ?? 'safe-storage',
    ...(options.warning ? { warning: options.warning } : {}),
    get: (key) =>
      serial(async () => {
        const encoded = (await load()).entries[key];
        if (encoded === undefined) return undefined;
        return cipher.decryptString(Buffer.from(encoded, 'base64'));
      }),
    set: (key, value) =>
      serial(async () => {
        const shape = await load();
        shape.entries[key] = Buffer.from(await cipher.encryptString(value)).toString('base64');
        await save(shape);
      }),
    delete: (key) =>
      serial(async () => {
        const shape = await load();
        if (!(key in shape.entries)) return;
        delete shape.entries[key];
        await save(shape);
      }),
  };
}

export interface EncryptedFileCandidateOptions extends EncryptedFileSecretStoreOptions {
  /** e.g. `() => safeStorage.isEncryptionAvailable()`; a plain sentence comes back when it is false. */
  isAvailable(): boolean | Promise<boolean>;
  unavailableReason?: string;
}

export function encryptedFileCandidate(options: EncryptedFileCandidateOptions): SecretStoreCandidate {
  const kind = options.kind ?? 'safe-storage';
  return {
    kind,
    async open() {
      if (!(await options.isAvailable())) {
        return err(options.unavailableReason ?? 'Encrypted storage is not available on this computer.');
      }
      return ok(createEncryptedFileSecretStore({ ...options, kind }));
    },
  };
}
