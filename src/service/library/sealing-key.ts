import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Keyring } from '../core-context';
import { loadOrCreateKey } from './secret-key-file';

/** The `keyring` option of a service started by the app or the CLI: their secret store when it is the keychain. */
export const keychainOf = (secrets: Keyring): { keyring?: Keyring } =>
  secrets.kind === 'keychain' ? { keyring: secrets } : {};

const KEYRING_PREFIX = 'agentdesk-service-key:';

/**
 * The 32-byte key that seals a kind of stored secret (model provider keys). Started by the app or the CLI
 * with the OS keychain, it lives there, so the sealed keys in the store and the key that opens them are never
 * side by side on disk; a key file an earlier start wrote is moved there (then removed). Without a keychain
 * (`npm run service`, a server, an app or CLI that has none) it is `<dataDir>/keys/<name>.key`, mode 0600.
 */
export async function loadSealingKey(
  dataDir: string,
  name: string,
  keyring: Keyring | undefined,
  log: (line: string) => void,
): Promise<Buffer> {
  if (!keyring) return loadOrCreateKey(dataDir, name);
  const entry = `${KEYRING_PREFIX}${name}`;
  try {
    const held = await keyring.get(entry);
    if (held) return checked(Buffer.from(held, 'base64'), `the ${keyring.kind} entry ${entry}`);
    const file = path.join(dataDir, 'keys', `${name}.key`);
    const earlier = await readFile(file, 'utf8').catch(() => undefined);
    const key = earlier ? checked(Buffer.from(earlier.trim(), 'base64'), file) : randomBytes(32);
    await keyring.set(entry, key.toString('base64'));
    // Removed only once the keyring gives the same key back: nothing sealed with it is ever left unopenable.
    if (earlier && (await keyring.get(entry)) === key.toString('base64')) await rm(file, { force: true });
    return key;
  } catch (error) {
    log(`The ${keyring.kind} could not hold the ${name} key (${(error as Error).message}); using its file.`);
    return loadOrCreateKey(dataDir, name);
  }
}

function checked(key: Buffer, where: string): Buffer {
  if (key.length !== 32) throw new Error(`${where} does not hold a 32-byte key`);
  return key;
}
