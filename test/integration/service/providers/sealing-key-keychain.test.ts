import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Keyring } from '../../../../src/service/core-context';
import { createHarness } from '../turns/harness';
import { startListServer, withoutProviderEnvironment, type ListServer } from './models-list-server';

// Where the key that seals the model providers' keys lives when the app or the CLI starts the service with
// the OS keychain: in that keychain, never beside the sealed keys on disk. The keychain is a stand-in kept in
// memory (no OS keychain runs here); the service, its store, its files and the provider are real.

const KEY = 'sk-test.sealing.5c1d9e0f2a77';
const KEY_FILE = ['keys', 'model-provider-keys.key'];

let provider: ListServer;
let restoreEnv: () => void;
let dataDir: string;

/** An OS keychain as the host's SecretStore gives it: named entries of text. */
function standInKeychain(): Keyring & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    kind: 'keychain',
    entries,
    get: async (name) => entries.get(name),
    set: async (name, value) => void entries.set(name, value),
  };
}

/** Starts the service on the same data folder, lists the person's providers, and closes it again. */
async function providersOnce(keyring: Keyring | undefined, add = false) {
  const h = await createHarness({ dataDir, ...(keyring ? { keyring } : {}) });
  try {
    if (add) {
      const added = await h.api('POST', '/api/v2/me/model-providers', {
        tipo: 'openai-compatible',
        clave: KEY,
        urlBase: provider.baseURL,
        nombre: 'Sealed server',
      });
      expect(added.status).toBe(201);
    }
    const listed = await h.api<{ proveedores: { nombre: string; clave?: string }[] }>(
      'GET',
      '/api/v2/me/model-providers',
    );
    expect(listed.status).toBe(200);
    return listed.body.proveedores.find((p) => p.nombre === 'Sealed server');
  } finally {
    await h.close();
  }
}

async function diskHolds(text: string): Promise<boolean> {
  for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    if ((await readFile(join(entry.parentPath, entry.name))).includes(text)) return true;
  }
  return false;
}

beforeAll(async () => {
  restoreEnv = withoutProviderEnvironment();
  provider = await startListServer({ protocol: 'openai', apiKey: KEY, models: ['sealed-model'] });
});
afterAll(async () => {
  await provider?.close();
  restoreEnv?.();
});

it('keeps the sealing key in the keychain, not on disk, and opens the sealed key after a restart', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-sealing-'));
  try {
    const keychain = standInKeychain();
    expect((await providersOnce(keychain, true))?.clave).toBe('sk-…2a77');
    expect(existsSync(join(dataDir, ...KEY_FILE))).toBe(false);
    const sealingKey = keychain.entries.get('agentdesk-service-key:model-provider-keys');
    expect(Buffer.from(sealingKey!, 'base64')).toHaveLength(32);
    expect(await diskHolds(KEY)).toBe(false);
    expect(await diskHolds(sealingKey!)).toBe(false);
    expect((await providersOnce(keychain))?.clave).toBe('sk-…2a77');
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

it('moves a key file of an earlier start into the keychain, and a lost keychain fails no list', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-sealing-'));
  try {
    expect((await providersOnce(undefined, true))?.clave).toBe('sk-…2a77');
    const file = await readFile(join(dataDir, ...KEY_FILE), 'utf8');
    const keychain = standInKeychain();
    expect((await providersOnce(keychain))?.clave).toBe('sk-…2a77');
    expect(keychain.entries.get('agentdesk-service-key:model-provider-keys')).toBe(file.trim());
    expect(existsSync(join(dataDir, ...KEY_FILE))).toBe(false);
    // The keychain was reset: a new sealing key cannot open the old sealed key, and the list still answers.
    const listed = await providersOnce(standInKeychain());
    expect(listed).toBeDefined();
    expect(listed?.clave ?? null).toBeNull();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
