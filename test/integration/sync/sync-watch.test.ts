/**
 * The watcher as a trigger, on real disk against the real local service: it watches folders only
 * (a folder's watch reports its files), so edits, new nested folders, deletes and editor saves
 * must each still lead to a sync without anyone calling syncNow.
 */
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../../src/core/sync/engine/sync-engine';
import { createSyncWorld, eventually, type SyncWorld } from './sync-harness';

let world: SyncWorld;
let engine: SyncEngine;
beforeEach(async () => {
  world = await createSyncWorld();
  engine = world.engine({ watch: true, debounceMs: 50 });
  await engine.start();
});
afterEach(async () => {
  await world.close();
});

const remoteHas = (path: string, text: string) => async () => (await world.remote.read(path)) === text;

describe('the watcher triggers sync', () => {
  it('for a file created in a new nested folder, then edited, then deleted', async () => {
    await mkdir(join(world.root, 'work/new/deep'), { recursive: true });
    await writeFile(join(world.root, 'work/new/deep/x.txt'), 'first');
    await eventually(remoteHas('work/new/deep/x.txt', 'first'), 'the new file reaches the agent');

    await writeFile(join(world.root, 'work/new/deep/x.txt'), 'second');
    await eventually(remoteHas('work/new/deep/x.txt', 'second'), 'the edit reaches the agent');

    await rm(join(world.root, 'work/new/deep/x.txt'));
    await eventually(
      async () => !(await world.remote.list()).includes('work/new/deep/x.txt'),
      'the delete reaches the agent',
    );
  });

  it('for an editor save (swap file renamed over the file), and not for a symlink loop', async () => {
    await mkdir(join(world.root, 'work'), { recursive: true });
    await writeFile(join(world.root, 'work/doc.md'), 'draft');
    await eventually(remoteHas('work/doc.md', 'draft'), 'the file reaches the agent');

    await writeFile(join(world.root, 'work/.doc.md.swp'), 'saved from vim');
    await rename(join(world.root, 'work/.doc.md.swp'), join(world.root, 'work/doc.md'));
    await eventually(remoteHas('work/doc.md', 'saved from vim'), 'the save reaches the agent');

    await symlink(join(world.root, 'work'), join(world.root, 'work/loop'));
    await writeFile(join(world.root, 'work/after-loop.txt'), 'still fine');
    await eventually(remoteHas('work/after-loop.txt', 'still fine'), 'sync goes on past the loop');
    expect((await world.remote.list()).filter((p) => p.includes('loop/'))).toEqual([]);
    expect(engine.current.skipped).toContainEqual({ path: 'work/loop', reason: 'symlink' });
  });
});
