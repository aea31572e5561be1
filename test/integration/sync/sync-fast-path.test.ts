/**
 * The fast path (issue 30, item 3) on real disk against the real local service: a change the
 * watcher names is planned from its stored base alone and carried out without walking the folder
 * or listing the agent's side; what the paths alone cannot decide goes to a full cycle, whose
 * rules (conflicts, the mass-delete guard, name clashes, the ignore rules) still hold.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../../src/core/sync/engine/sync-engine';
import { createSyncWorld, eventually, type SyncWorld } from './sync-harness';

let world: SyncWorld;
beforeEach(async () => {
  world = await createSyncWorld();
});
afterEach(async () => {
  await world.close();
});

/** GETs of the whole workspace listing (a full cycle's), not of one entry. */
const fullListings = () => world.proxy.count('GET', /\/files\/?$/);
const puts = (path: string) => world.proxy.count('PUT', new RegExp(`/files/${path}$`));

async function started(files: Record<string, string>, watch = false): Promise<SyncEngine> {
  for (const [path, text] of Object.entries(files)) await world.local.write(path, text);
  const engine = world.engine({ watch, debounceMs: 50, remoteIntervalMs: 0, remotePollMs: 0 });
  await engine.start();
  if (watch) {
    // The first cycle writes the folder's marker, which the watcher reports, news that earns one full
    // cycle; on a busy machine its event comes after start() has resolved. Let it come and be synced
    // before the requests are counted (a quiet run once counted its listing as the save's).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await engine.syncNow();
  }
  world.proxy.seen.length = 0;
  return engine;
}

describe('the fast path', () => {
  it('sends a save, a new file and a delete the watcher saw, without listing the agent or walking the folder', async () => {
    await started({ 'work/a.txt': 'one', 'work/n/b.txt': 'bee' }, true);
    // Saved as editors do (whole, by a rename): an in-place write the watcher catches half-done on a
    // busy machine changes under its upload, and a change mid-upload rightly goes to a full cycle.
    await world.local.save('work/a.txt', 'two');
    await eventually(async () => (await world.remote.read('work/a.txt')) === 'two', 'the save arrives');
    await world.local.save('work/n/new.txt', 'new');
    await eventually(
      async () => (await world.remote.read('work/n/new.txt')) === 'new',
      'the new file arrives',
    );
    await rm(join(world.root, 'work/n/b.txt'));
    await eventually(async () => !(await world.remote.list()).includes('work/n/b.txt'), 'the delete arrives');
    // The old way ran a full cycle per change: a listing of the whole workspace each time.
    expect(fullListings()).toBe(0);
    expect(puts('a.txt')).toBe(1);
    expect(puts('n/new.txt')).toBe(1);
    expect(await world.remote.list()).toEqual(['work/a.txt', 'work/n/new.txt']);
  });

  it('plans only the paths it is given', async () => {
    const engine = await started({ 'work/a.txt': 'one' });
    await world.local.write('work/a.txt', 'two');
    await world.local.write('work/other.txt', 'not named');
    const status = await engine.syncPaths(['work/a.txt']);
    expect(status.state).toBe('idle');
    expect(await world.remote.read('work/a.txt')).toBe('two');
    expect(await world.remote.list()).toEqual(['work/a.txt']);
    expect(fullListings()).toBe(0);
  });

  it("never writes over the agent's change made since the last listing: both versions are kept", async () => {
    const engine = await started({ 'work/a.txt': 'base' });
    await world.remote.write('work/a.txt', 'the agent wrote this');
    await world.local.write('work/a.txt', 'the person wrote this');
    const status = await engine.syncPaths(['work/a.txt']);
    expect(status.conflicts.map((c) => c.path)).toEqual(['work/a.txt']);
    expect(await world.remote.read('work/a.txt')).toBe('the agent wrote this');
    expect(await world.local.read('work/a.txt')).toBe('the person wrote this');
    expect(await world.local.read(status.conflicts[0]!.remoteCopyPath)).toBe('the agent wrote this');
  });

  it('hands a deleted folder of many files to the full cycle, whose mass-delete guard holds', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`work/many/f${i}.txt`, `file ${i}`]),
    );
    const engine = await started({ ...files, 'work/keep.txt': 'keep' });
    await rm(join(world.root, 'work/many'), { recursive: true });
    const status = await engine.syncPaths(['work/many', 'work/many/f1.txt']);
    expect(status.pendingDeletes).toMatchObject({ side: 'remote', deletes: 30 });
    expect((await world.remote.list()).length).toBe(31);
    expect(fullListings()).toBe(1);
  });

  it('hands a removed folder the watcher has named only in part to the full cycle (a busy machine splits its events)', async () => {
    const engine = await started({ ...numbered('work/many/f', 20), 'work/keep.txt': 'keep' });
    await rm(join(world.root, 'work/many'), { recursive: true });
    const status = await engine.syncPaths(['work/many/f1.txt', 'work/many/f2.txt']);
    expect(status.pendingDeletes).toMatchObject({ side: 'remote', deletes: 20 });
    expect(await world.remote.list()).toHaveLength(21);
  });

  it('hands files removed from a folder to the full cycle when more are gone than the watcher named', async () => {
    const engine = await started({ ...numbered('work/flat/c', 20), 'work/flat/keep.txt': 'keep' });
    for (let i = 0; i < 20; i += 1) await rm(join(world.root, `work/flat/c${i}.txt`));
    const status = await engine.syncPaths(['work/flat/c0.txt']);
    expect(status.pendingDeletes).toMatchObject({ side: 'remote', deletes: 20 });
    expect(await world.remote.list()).toHaveLength(21);
  });

  it('walks a named folder whole (its files were written before its watch began)', async () => {
    const engine = await started({ 'work/a.txt': 'one' });
    await mkdir(join(world.root, 'work/fresh/deep'), { recursive: true });
    await writeFile(join(world.root, 'work/fresh/x.txt'), 'x');
    await writeFile(join(world.root, 'work/fresh/deep/y.txt'), 'y');
    await engine.syncPaths(['work/fresh']);
    expect(await world.remote.list()).toEqual(['work/a.txt', 'work/fresh/deep/y.txt', 'work/fresh/x.txt']);
    expect(fullListings()).toBe(0);
  });

  it('leaves ignored paths alone, and a changed ignore file or a case twin to the full cycle', async () => {
    const engine = await started({ 'work/a.txt': 'one' });
    await world.local.write('.agentdeskignore', 'secret/\n');
    await world.local.write('work/secret/key.txt', 'never sent');
    await engine.syncPaths(['.agentdeskignore', 'work/secret/key.txt']);
    expect(fullListings()).toBe(1);
    await world.local.write('work/A.txt', 'a twin');
    const status = await engine.syncPaths(['work/A.txt']);
    expect(fullListings()).toBe(2);
    expect(status.skipped).toContainEqual({ path: 'work/A.txt', reason: 'name-clash' });
    expect(await world.remote.list()).toEqual(['work/a.txt']);
    expect(await world.remote.read('work/a.txt')).toBe('one');
  });

  it("brings the agent's change by one listing, planning only what moved there", async () => {
    const engine = await started({ 'work/a.txt': 'one', 'work/b.txt': 'bee' });
    await engine.syncPaths(['work/a.txt']); // nothing moved: no request
    await world.local.write('work/a.txt', 'mine'); // saved, not yet named by a watcher
    await engine.syncPaths(['work/a.txt']);
    await world.remote.write('work/b.txt', 'the agent wrote this');
    await world.local.write('work/unnamed.txt', 'a full cycle would send this');
    world.proxy.seen.length = 0;
    const status = await engine.syncRemote();
    expect(status.state).toBe('idle');
    expect(await world.local.read('work/b.txt')).toBe('the agent wrote this');
    // One listing; our own upload of a.txt matched its base (nothing sent); the folder was not walked.
    expect(fullListings()).toBe(1);
    expect(world.proxy.seen.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(world.proxy.count('GET', /\/files\/b\.txt$/)).toBe(1);
    expect(await world.remote.list()).toEqual(['work/a.txt', 'work/b.txt']);
  });
  it('hands a named folder to the full cycle when a name in it was left out by the last one (a name clash)', async () => {
    const nfc = 'work/d/caf\u00e9.txt';
    const engine = await started({ [nfc]: 'base' });
    // The agent's side now also holds the NFD spelling: two names there, one name here. Neither is carried.
    world.proxy.add({
      method: 'GET',
      path: new RegExp(`/api/v2/agents/${world.agentId}/files/$`),
      fault: {
        kind: 'rewrite-json',
        rewrite: (body) => {
          const listing = body as { files: { path: string; size: number }[] };
          return { ...listing, files: [...listing.files, { path: 'd/cafe\u0301.txt', size: 5 }] };
        },
      },
    });
    const full = await engine.syncNow();
    expect(full.skipped.filter((s) => s.reason === 'name-clash')).toHaveLength(2);
    await world.local.write(nfc, 'mine');
    // The folder is named (a watch that began late, a rename): it is walked whole, the left-out name with it.
    const status = await engine.syncPaths(['work/d']);
    expect(await world.remote.read(nfc)).toBe('base');
    expect(status.skipped.filter((s) => s.reason === 'name-clash')).toHaveLength(2);
  });
});

/** `count` numbered files: `${prefix}0.txt` … */
function numbered(prefix: string, count: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}.txt`, `file ${i}`]));
}
