import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DESKTOP_CLIENT_ID,
  LOCAL_PROFILE_ID,
  checkBaseUrl,
  openProfileStore,
} from '../../../src/core/profiles/profile-store';

let dir: string;
let filePath: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdesk-profiles-'));
  filePath = join(dir, 'profiles.json');
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('profile store', () => {
  it('starts empty and remembers "this computer" across restarts', async () => {
    const store = await openProfileStore({ filePath });
    expect(store.state()).toEqual({ profiles: [], activeProfileId: null });
    const local = await store.addLocal();
    expect(local).toMatchObject({ id: LOCAL_PROFILE_ID, kind: 'local', clientId: DESKTOP_CLIENT_ID });
    await store.addLocal();
    const reopened = await openProfileStore({ filePath });
    expect(reopened.state().profiles).toHaveLength(1);
    expect(reopened.active()?.id).toBe(LOCAL_PROFILE_ID);
  });

  it('adds, dedupes, switches and removes custom servers', async () => {
    const store = await openProfileStore({ filePath });
    await store.addLocal();
    const added = await store.addCustom({
      baseUrl: 'https://api.example.com/',
      clientId: 'my-app',
      loopbackPorts: [8123, 8123],
    });
    expect(added.ok).toBe(true);
    if (!added.ok) return;
    expect(added.value).toMatchObject({
      kind: 'custom',
      baseUrl: 'https://api.example.com',
      loopbackPorts: [8123],
      name: 'api.example.com',
    });
    expect(store.active()?.id).toBe(added.value.id);
    const again = await store.addCustom({
      baseUrl: 'https://api.example.com',
      clientId: 'my-app',
      name: 'Work',
    });
    expect(again.ok && again.value.id).toBe(added.value.id);
    expect(store.state().profiles).toHaveLength(2);
    expect((await store.setActive(LOCAL_PROFILE_ID)).ok).toBe(true);
    const removed = await store.remove(LOCAL_PROFILE_ID);
    expect(removed.ok && removed.value.activeProfileId).toBe(added.value.id);
    const reopened = await openProfileStore({ filePath });
    expect(reopened.state().profiles.map((p) => p.name)).toEqual(['Work']);
  });

  it('refuses unsafe or malformed custom servers with plain sentences', async () => {
    const store = await openProfileStore({ filePath });
    const http = await store.addCustom({ baseUrl: 'http://api.example.com', clientId: 'x' });
    expect(http).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(checkBaseUrl('http://127.0.0.1:8787').ok).toBe(true);
    expect(checkBaseUrl('not a url').ok).toBe(false);
    expect((await store.addCustom({ baseUrl: 'https://a.example', clientId: ' ' })).ok).toBe(false);
    expect(
      (await store.addCustom({ baseUrl: 'https://a.example', clientId: 'x', loopbackPorts: [0] })).ok,
    ).toBe(false);
    expect(await store.setActive('nope')).toMatchObject({ ok: false, error: { code: 'unknown_profile' } });
  });

  it('writes no secrets and survives a corrupt file', async () => {
    const store = await openProfileStore({ filePath });
    await store.addCustom({ baseUrl: 'https://a.example', clientId: 'x' });
    const text = await readFile(filePath, 'utf8');
    expect(Object.keys(JSON.parse(text))).toEqual(['version', 'activeProfileId', 'profiles']);
    expect(text).not.toMatch(/token|secret|password/i);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(filePath, '{not json');
    const reopened = await openProfileStore({ filePath });
    expect(reopened.state().profiles).toEqual([]);
  });
});
