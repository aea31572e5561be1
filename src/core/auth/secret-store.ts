import type { Result } from '../common/result';
import { createMemorySecretStore } from './memory-secret-store';

/**
 * One interface for every place a secret can live: the OS keychain, an Electron
 * safeStorage-encrypted file (adapted in main/), or memory. Values are opaque strings.
 */
export interface SecretStore {
  /** 'keychain', 'safe-storage', 'memory', ... */
  readonly kind: string;
  /** A plain sentence the app must show when this store is weaker than it should be. */
  readonly warning?: string;
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** A store that may or may not work on this machine; `open()` finds out. */
export interface SecretStoreCandidate {
  readonly kind: string;
  /** A working store, or a plain sentence saying why this one can't be used here. */
  open(): Promise<Result<SecretStore, string>>;
}

export const MEMORY_ONLY_WARNING =
  'No keychain is available on this computer, so your sign-in is kept in memory only and never written ' +
  'to disk: you will sign in again each time AgentDesk starts.';

export interface ChosenSecretStore {
  store: SecretStore;
  /** Candidates tried before the chosen one, with the reason each was passed over. */
  skipped: { kind: string; reason: string }[];
}

/**
 * Tries the candidates in order and returns the first that works. With none working it
 * returns a memory store carrying MEMORY_ONLY_WARNING: never a silent plain-text file.
 */
export async function chooseSecretStore(
  candidates: readonly SecretStoreCandidate[],
): Promise<ChosenSecretStore> {
  const skipped: { kind: string; reason: string }[] = [];
  for (const candidate of candidates) {
    let opened: Result<SecretStore, string>;
    try {
      opened = await candidate.open();
    } catch (error) {
      opened = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    if (opened.ok) return { store: opened.value, skipped };
    skipped.push({ kind: candidate.kind, reason: opened.error });
  }
  return { store: createMemorySecretStore({ warning: MEMORY_ONLY_WARNING }), skipped };
}
