/**
 * A removal still under way when a sync looks (a busy machine splits `rm -r` across the watcher's
 * batches, and a cycle may run between them) is waited for and counted whole, so the mass-delete
 * guard holds all of it: no part of it reaches the agent before the person confirms. Real files,
 * the real local service, the real engine; the removal's second part lands while the sync runs.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { awaitDeletionsSettled } from '../../../src/core/sync/local/deletion-settle';
import { createSyncWorld, type SyncWorld } from './sync-harness';

let world: SyncWorld;
beforeEach(async () => {
  world = await createSyncWorld();
});
afterEach(async () => {
  await world.close();
});

const numbered = (prefix: string, count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}.txt`, `file ${i}`]));

async function started(files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) await world.local.write(path, text);
  const engine = world.engine({ watch: false, remoteIntervalMs: 0, remotePollMs: 0 });
  await engine.start();
  return engine;
}

/** Removes files `from`..`to` (exclusive) of `work/many/f`, one by one as `rm -r` does. */
async function remove(from: number, to: number): Promise<void> {
  for (let i = from; i < to; i += 1) await rm(join(world.root, `work/many/f${i}.txt`));
}

/** The second part of a removal, started `afterMs` from now while the sync already runs. */
function later(afterMs: number, part: () => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => setTimeout(() => part().then(resolve, reject), afterMs));
}

describe('a removal under way', () => {
  it('is counted whole by a full cycle: the guard holds all 25 deletions, none reaches the agent', async () => {
    const engine = await started({ ...numbered('work/many/f', 25), 'work/keep.txt': 'keep' });
    await remove(0, 12); // 12 of 26: under the guard, had the cycle carried out what it saw first
    const cycle = engine.syncNow();
    await later(150, () => remove(12, 25));
    const status = await cycle;
    expect(status.state).toBe('paused');
    expect(status.pendingDeletes).toMatchObject({ side: 'remote', deletes: 25 });
    expect(await world.remote.list()).toHaveLength(26);
  });

  it('is counted whole when the watcher named only its first two files (the fast path)', async () => {
    const engine = await started({ ...numbered('work/many/f', 20), 'work/keep.txt': 'keep' });
    await remove(0, 2);
    const named = engine.syncPaths(['work/many/f0.txt', 'work/many/f1.txt']);
    await later(150, () => remove(2, 20));
    const status = await named;
    expect(status.pendingDeletes).toMatchObject({ side: 'remote', deletes: 20 });
    expect(await world.remote.list()).toHaveLength(21);
  });

  it('still goes ahead when it is small, once the folder held still', async () => {
    const engine = await started({ ...numbered('work/many/f', 4), 'work/keep.txt': 'keep' });
    await remove(0, 1);
    const status = await engine.syncPaths(['work/many/f0.txt']);
    expect(status.state).toBe('idle');
    expect(await world.remote.list()).toHaveLength(4);
  });
});

describe('awaitDeletionsSettled', () => {
  it('does not wait for a folder that has held still, and looks at the nearest folder left of one removed', async () => {
    await world.local.write('work/gone/a.txt', 'a');
    const now = () => Date.now() + 10_000; // as if the folders were written ten seconds ago
    expect(await awaitDeletionsSettled(world.root, ['work/gone/a.txt'], 500, now)).toBe(false);
    await rm(join(world.root, 'work/gone'), { recursive: true });
    // `work` just lost `gone`: it moved now, so the deletion waits (and says so).
    expect(await awaitDeletionsSettled(world.root, ['work/gone/a.txt'], 200)).toBe(true);
  });

  it('gives up waiting on a folder written to without pause', async () => {
    await world.local.write('work/busy/a.txt', 'a');
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i += 1) {
        await world.local.write(`work/busy/w${i}.tmp`, String(i));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await rm(join(world.root, 'work/busy/a.txt'));
    try {
      // Resolves (the test's own timeout is the bound), having waited.
      expect(await awaitDeletionsSettled(world.root, ['work/busy/a.txt'], 200)).toBe(true);
    } finally {
      writing = false;
      await writer;
    }
  }, 20_000);
});
