import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createEncryptedFileSecretStore,
  encryptedFileCandidate,
} from '../../../../src/core/auth/encrypted-file-secret-store';
import type { StringCipher } from '../../../../src/core/auth/encrypted-file-secret-store';
import { createKeyringSecretStore, keyringCandidate } from '../../../../src/core/auth/keyring-secret-store';
import type { KeyringEntry } from '../../../../src/core/auth/keyring-secret-store';
import { createMemorySecretStore } from '../../../../src/core/auth/memory-secret-store';
import { chooseSecretStore, MEMORY_ONLY_WARNING } from '../../../../src/core/auth/secret-store';

/** A real AES-256-GCM cipher standing in for Electron's safeStorage, which cannot run here. */
function aesCipher(): StringCipher {
  const key = randomBytes(32);
  return {
    async encryptString(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    async decryptString(data) {
      const buf = Buffer.from(data);
      const decipher = createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12));
      decipher.setAuthTag(buf.subarray(12, 28));
      return Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

/** Stands in for the OS keychain (not reachable on this Linux box: it answers AccessDenied). */
function fakeKeychain(options: { broken?: boolean } = {}) {
  const saved = new Map<string, string>();
  return (service: string, account: string): KeyringEntry => {
    const id = `${service}/${account}`;
    const guard = (): void => {
      if (options.broken) throw new Error("Couldn't access platform storage: AccessDenied");
    };
    return {
      getPassword: async () => (guard(), saved.get(id) ?? null),
      setPassword: async (value) => (guard(), void saved.set(id, value)),
      deletePassword: async () => (guard(), saved.delete(id)),
    };
  };
}

describe('memory secret store', () => {
  it('gets, sets and deletes', async () => {
    const store = createMemorySecretStore();
    expect(await store.get('k')).toBeUndefined();
    await store.set('k', 'v');
    expect(await store.get('k')).toBe('v');
    await store.delete('k');
    expect(await store.get('k')).toBeUndefined();
    expect(store.kind).toBe('memory');
    expect(store.warning).toBeUndefined();
  });
});

describe('encrypted file secret store', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentdesk-secrets-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps values across instances and writes only ciphertext', async () => {
    const cipher = aesCipher();
    const filePath = join(dir, 'nested', 'secrets.json');
    const first = createEncryptedFileSecretStore({ filePath, cipher });
    await first.set('tokens:local', 'refresh-token-value-123');
    await first.set('tokens:other', 'second-value-456');
    const second = createEncryptedFileSecretStore({ filePath, cipher });
    expect(await second.get('tokens:local')).toBe('refresh-token-value-123');
    const raw = await readFile(filePath, 'utf8');
    expect(raw).not.toContain('refresh-token-value-123');
    expect(raw).not.toContain('second-value-456');
    await second.delete('tokens:local');
    expect(await first.get('tokens:local')).toBeUndefined();
    expect(await first.get('tokens:other')).toBe('second-value-456');
  });

  it('does not lose writes made at the same time', async () => {
    const store = createEncryptedFileSecretStore({ filePath: join(dir, 's.json'), cipher: aesCipher() });
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`k${i}`, `value-${i}`)));
    const values = await Promise.all(Array.from({ length: 20 }, (_, i) => store.get(`k${i}`)));
    expect(values).toEqual(Array.from({ length: 20 }, (_, i) => `value-${i}`));
  });

  it('carries the warning it was given (e.g. basic_text on Linux)', async () => {
    const candidate = encryptedFileCandidate({
      filePath: join(dir, 's.json'),
      cipher: aesCipher(),
      isAvailable: () => true,
      warning: 'Your system keyring is not in use; secrets are only lightly protected.',
    });
    const opened = await candidate.open();
    expect(opened.ok && opened.value.warning).toMatch(/lightly protected/);
    expect(opened.ok && opened.value.kind).toBe('safe-storage');
  });
});

describe('keyring secret store', () => {
  it('files every key under one service', async () => {
    const store = createKeyringSecretStore({ service: 'AgentDesk-test', createEntry: fakeKeychain() });
    await store.set('tokens:a', 'v1');
    expect(await store.get('tokens:a')).toBe('v1');
    await store.delete('tokens:a');
    expect(await store.get('tokens:a')).toBeUndefined();
    expect(store.kind).toBe('keychain');
  });

  it('is offered only when a round trip works', async () => {
    expect((await keyringCandidate({ createEntry: fakeKeychain() }).open()).ok).toBe(true);
    const broken = await keyringCandidate({ createEntry: fakeKeychain({ broken: true }) }).open();
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.error).toMatch(/keychain can't be used/);
  });
});

describe('chooseSecretStore', () => {
  it('takes the first candidate that works and says why others were skipped', async () => {
    const chosen = await chooseSecretStore([
      keyringCandidate({ createEntry: fakeKeychain({ broken: true }) }),
      { kind: 'memory', open: async () => ({ ok: true, value: createMemorySecretStore() }) },
    ]);
    expect(chosen.store.kind).toBe('memory');
    expect(chosen.store.warning).toBeUndefined();
    expect(chosen.skipped).toEqual([{ kind: 'keychain', reason: expect.stringMatching(/AccessDenied/) }]);
  });

  it('falls back to memory with a visible warning, never to plain text', async () => {
    const chosen = await chooseSecretStore([
      keyringCandidate({ createEntry: fakeKeychain({ broken: true }) }),
      encryptedFileCandidate({
        filePath: '/nonexistent/secrets.json',
        cipher: aesCipher(),
        isAvailable: () => false,
      }),
      {
        kind: 'throws',
        open: async () => {
          throw new Error('boom');
        },
      },
    ]);
    expect(chosen.store.kind).toBe('memory');
    expect(chosen.store.warning).toBe(MEMORY_ONLY_WARNING);
    expect(chosen.skipped.map((s) => s.kind)).toEqual(['keychain', 'safe-storage', 'throws']);
  });
});

describe('the real OS keychain here', () => {
  it('is probed through @napi-rs/keyring and either works or is passed over with a reason', async () => {
    // This Linux box has no reachable keychain (AccessDenied); a desktop with one passes the round trip.
    const opened = await keyringCandidate({ service: 'AgentDesk-test-probe' }).open();
    if (opened.ok) expect(opened.value.kind).toBe('keychain');
    else expect(opened.error).toMatch(/^The system keychain can't be used here \(.+\)\.$/);
  });
});
