/**
 * The scenarios of docs/sync.md, each against the real local service and real disk.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSyncWorld, type SyncWorld } from './sync-harness';

/** Names in a local folder, conflict copies included. */
async function namesIn(world: SyncWorld, dir: string): Promise<string[]> {
  return (await readdir(join(world.root, dir))).sort();
}

let world: SyncWorld;
beforeEach(async () => {
  world = await createSyncWorld();
});
afterEach(async () => {
  await world.close();
});

describe('sync.md scenarios', () => {
  it('1. first sync into an empty folder downloads everything and records the base', async () => {
    await world.remote.write('work/notes/a.md', 'alpha');
    await world.remote.write('work/b.txt', 'beta');
    const engine = world.engine();
    const status = await engine.start();
    expect(status.state).toBe('idle');
    expect(await world.local.read('work/notes/a.md')).toBe('alpha');
    expect(await world.local.read('work/b.txt')).toBe('beta');
    expect(await world.local.exists('instructions.md')).toBe(true);
    expect(await world.local.exists('mcp.json')).toBe(true);
    // A second cycle has nothing to do: the base was recorded.
    const again = await engine.syncNow();
    expect(again.total).toBe(0);
  });

  it('3. a new local file is uploaded once and not downloaded again', async () => {
    const engine = world.engine();
    await engine.start();
    await world.local.write('work/new.txt', 'mine');
    const status = await engine.syncNow();
    expect(status.total).toBe(1);
    expect(await world.remote.read('work/new.txt')).toBe('mine');
    expect((await engine.syncNow()).total).toBe(0);
  });

  it('4. a new remote file is downloaded once and not uploaded again', async () => {
    const engine = world.engine();
    await engine.start();
    await world.remote.write('work/theirs.txt', 'theirs');
    expect((await engine.syncNow()).total).toBe(1);
    expect(await world.local.read('work/theirs.txt')).toBe('theirs');
    expect((await engine.syncNow()).total).toBe(0);
  });

  it('2. first sync with different content on each side keeps both and overwrites nothing', async () => {
    await world.remote.write('work/a.txt', 'remote version');
    await world.local.write('work/a.txt', 'local version!');
    const status = await world.engine().start();
    expect(await world.local.read('work/a.txt')).toBe('local version!');
    expect(await world.remote.read('work/a.txt')).toBe('remote version');
    const copies = (await namesIn(world, 'work')).filter((n) => n.includes('.conflict-remote-'));
    expect(copies).toHaveLength(1);
    expect(await world.local.read(`work/${copies[0]}`)).toBe('remote version');
    expect(status.conflicts.map((c) => c.path)).toEqual(['work/a.txt']);
    // The conflict copy stays local: it is never uploaded.
    expect((await world.remote.list()).filter((p) => p.includes('conflict'))).toEqual([]);
  });

  it('5. a local delete deletes the remote file', async () => {
    await world.remote.write('work/a.txt', 'a');
    await world.remote.write('work/b.txt', 'b');
    const engine = world.engine();
    await engine.start();
    await world.local.remove('work/a.txt');
    const status = await engine.syncNow();
    expect(status.state).toBe('idle');
    expect(await world.remote.list()).toEqual(['work/b.txt']);
  });

  it('6. a remote delete sends the local file to the trash', async () => {
    await world.remote.write('work/a.txt', 'a');
    await world.remote.write('work/b.txt', 'b');
    const engine = world.engine();
    await engine.start();
    await world.remote.remove('work/a.txt');
    await engine.syncNow();
    expect(await world.local.exists('work/a.txt')).toBe(false);
    expect(world.trashed).toEqual(['work/a.txt']);
    expect(await readdir(world.trashDir)).toHaveLength(1);
  });

  it('7. both sides changed to identical content: no conflict, base updated', async () => {
    await world.remote.write('work/a.txt', 'old');
    const engine = world.engine();
    await engine.start();
    await world.remote.write('work/a.txt', 'same new text');
    await world.local.write('work/a.txt', 'same new text');
    const status = await engine.syncNow();
    expect(status.conflicts).toEqual([]);
    expect(world.proxy.count('PUT', /\/files\//)).toBe(0);
    expect((await engine.syncNow()).total).toBe(0);
  });

  it('8. both sides changed differently: both versions kept, path flagged, then resolved each way', async () => {
    for (const name of ['mine', 'theirs', 'both']) await world.remote.write(`work/${name}.txt`, 'base');
    const engine = world.engine();
    await engine.start();
    for (const name of ['mine', 'theirs', 'both']) {
      await world.remote.write(`work/${name}.txt`, `remote ${name} edit`);
      await world.local.write(`work/${name}.txt`, `local ${name} edit!`);
    }
    let status = await engine.syncNow();
    expect(status.conflicts.map((c) => c.path).sort()).toEqual([
      'work/both.txt',
      'work/mine.txt',
      'work/theirs.txt',
    ]);
    // Later local edits stay local while the conflict is open.
    await world.local.write('work/mine.txt', 'local mine edit, again');
    await engine.syncNow();
    expect(await world.remote.read('work/mine.txt')).toBe('remote mine edit');

    await engine.resolveConflict('work/mine.txt', 'mine');
    expect(await world.remote.read('work/mine.txt')).toBe('local mine edit, again');
    await engine.resolveConflict('work/theirs.txt', 'theirs');
    expect(await world.local.read('work/theirs.txt')).toBe('remote theirs edit');
    status = await engine.resolveConflict('work/both.txt', 'both');
    expect(await world.local.read('work/both.txt')).toBe('remote both edit');
    const kept = (await namesIn(world, 'work')).filter((n) => n.startsWith('both.mine-'));
    expect(kept).toHaveLength(1);
    expect(await world.remote.read(`work/${kept[0]}`)).toBe('local both edit!');
    expect(status.conflicts).toEqual([]);
    expect((await namesIn(world, 'work')).filter((n) => n.includes('.conflict-remote-'))).toEqual([]);
    expect((await engine.syncNow()).total).toBe(0);
  });

  it('9. deleted on one side, modified on the other: the modified file survives (both directions)', async () => {
    await world.remote.write('work/keep-local-edit.txt', 'v1');
    await world.remote.write('work/keep-remote-edit.txt', 'v1');
    await world.remote.write('work/other.txt', 'x');
    const engine = world.engine();
    await engine.start();
    await world.local.write('work/keep-local-edit.txt', 'v2 local');
    await world.remote.remove('work/keep-local-edit.txt');
    await world.remote.write('work/keep-remote-edit.txt', 'v2 remote');
    await world.local.remove('work/keep-remote-edit.txt');
    await engine.syncNow();
    expect(await world.remote.read('work/keep-local-edit.txt')).toBe('v2 local');
    expect(await world.local.read('work/keep-remote-edit.txt')).toBe('v2 remote');
  });
});
