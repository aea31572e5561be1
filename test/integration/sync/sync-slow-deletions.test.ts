/**
 * Deletions made slowly (issue 38, item 7): a script that deletes a folder file by file reaches the sync one
 * file per watcher batch, each far under the mass-delete guard alone. The guard counts the deletes carried
 * out over the last minute with each plan's, so such a script is paused like `rm -r`, while a person deleting
 * a few files now and then is not. Real files on disk, the real watcher and engine, the real local service.
 */
import { rm } from 'node:fs/promises';
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

const file = (i: number) => `work/many/f${i}.txt`;

async function started(count: number, deleteWindowMs?: number): Promise<SyncEngine> {
  for (let i = 0; i < count; i += 1) await world.local.write(file(i), `file ${i}`);
  const engine = world.engine({
    watch: true,
    debounceMs: 50,
    deleteSettleMs: 100,
    ...(deleteWindowMs ? { deleteWindowMs } : {}),
  });
  await engine.start();
  expect(await world.remote.list()).toHaveLength(count);
  return engine;
}

const remoteHolds = async (path: string) => (await world.remote.list()).includes(path);

describe('deletions made one by one', { timeout: 120_000 }, () => {
  it('a script deleting 22 files, each synced before the next: paused once 20 went in the window', async () => {
    const engine = await started(40);
    for (let i = 0; i < 22; i += 1) {
      await rm(join(world.root, file(i)));
      // The slowest script: each file is its own watcher batch, carried out (or held) before the next.
      await eventually(
        async () => !(await remoteHolds(file(i))) || engine.current.pendingDeletes?.deletes === i - 19,
        `the deletion of ${file(i)} is carried out or held`,
      );
    }
    const status = engine.current;
    expect(status.state).toBe('paused');
    expect(status.pendingDeletes).toMatchObject({ side: 'remote', deletes: 2, recent: 20 });
    expect(status.message).toContain('after 20 deleted one after another in the last minute');
    // The agent lost 20 (kept in the version history); the last two wait for the person.
    const left = await world.remote.list();
    expect(left).toHaveLength(20);
    expect(left).toEqual(expect.arrayContaining([file(20), file(21)]));

    const confirmed = await engine.confirmDeletes();
    expect(confirmed.state).toBe('idle');
    expect(await world.remote.list()).toHaveLength(18);
    // What was confirmed is settled: the next deletion goes at once.
    await rm(join(world.root, file(22)));
    await eventually(async () => !(await remoteHolds(file(22))), 'a later deletion is carried out');
    expect(engine.current.pendingDeletes).toBeUndefined();
  });

  it('a person deleting files now and then: what left longer ago than the window no longer counts', async () => {
    const engine = await started(60, 1500);
    const removeBatch = async (from: number, to: number) => {
      for (let i = from; i < to; i += 1) await rm(join(world.root, file(i)));
      await eventually(
        async () => (await world.remote.list()).length === 60 - to,
        `files ${from} to ${to - 1} leave the agent`,
      );
    };
    await removeBatch(0, 15);
    // 15 more within the window would make 30 in it: over the guard's 20.
    await new Promise((resolve) => setTimeout(resolve, 1600));
    await removeBatch(15, 30);
    expect(engine.current.pendingDeletes).toBeUndefined();
    expect(engine.current.state).not.toBe('paused');
  });

  it('within the window the same two groups are one removal, and paused', async () => {
    const engine = await started(60);
    for (let i = 0; i < 15; i += 1) await rm(join(world.root, file(i)));
    await eventually(async () => (await world.remote.list()).length === 45, 'the first 15 leave the agent');
    for (let i = 15; i < 30; i += 1) await rm(join(world.root, file(i)));
    await eventually(async () => engine.current.pendingDeletes !== undefined, 'the sync pauses');
    expect(engine.current.pendingDeletes).toMatchObject({ side: 'remote', recent: 15 });
    expect(await world.remote.list()).toHaveLength(45);
  });
});
