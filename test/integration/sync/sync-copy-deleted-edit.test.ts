/**
 * A conflict settled by deleting the agent's copy while the person goes on editing their file (the
 * e2e sync-notes spec did this on a busy machine): the cycle that keeps "mine" uploads the version it
 * read, the person's newer edit lands meanwhile, and the same cycle must plan against the base the
 * settling just wrote, so the edit is simply uploaded. Planned against the base from before (the
 * open conflict), it was taken for a change on both sides and flagged as a new conflict. Real local
 * service, real disk; the edit is made at the moment the upload of "mine" returns.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { RemoteSide } from '../../../src/core/sync/plan/remote-side';
import { BoxRemote } from '../../../src/core/sync/remote/box-remote';
import { createSyncWorld, type SyncWorld } from './sync-harness';

let world: SyncWorld;
beforeEach(async () => {
  world = await createSyncWorld();
  await world.remote.write('work/keep.txt', 'keeps the listing non-empty');
});
afterEach(async () => {
  await world.close();
});

/** The real remote; the first upload of `path` after `arm()` is followed by the person's edit. */
function editAfterUpload(path: string, text: string): { remote: RemoteSide; arm(): void } {
  const box = new BoxRemote({ api: world.api, agentId: world.agentId, root: world.root });
  let armed = false;
  const remote = new Proxy(box, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key !== 'write' || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const written: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (armed && args[0] === path) {
          armed = false;
          await world.local.write(path, text);
        }
        return written;
      };
    },
  });
  return { remote, arm: () => (armed = true) };
}

it('an edit made while "keep mine" uploads is sent next, not flagged as a new conflict', async () => {
  const edit = editAfterUpload('work/a.txt', 'mine, edited again');
  const engine = world.engine({ remote: edit.remote });
  await world.remote.write('work/a.txt', 'the agent’s');
  await world.local.write('work/a.txt', 'mine');
  let status = await engine.start();
  expect(status.conflicts.map((c) => c.path)).toEqual(['work/a.txt']);
  const copy = (await readdir(join(world.root, 'work'))).find((n) => n.includes('.conflict-remote-'))!;

  await rm(join(world.root, 'work', copy));
  edit.arm();
  status = await engine.syncNow();
  expect(status.notices?.map((n) => n.text)).toContainEqual(
    expect.stringMatching(/^Resolved work\/a\.txt: kept mine/),
  );
  expect(status.conflicts).toEqual([]);
  expect((await readdir(join(world.root, 'work'))).filter((n) => n.includes('.conflict-remote-'))).toEqual(
    [],
  );
  expect(await world.remote.read('work/a.txt')).toBe('mine, edited again');
  expect(await world.local.read('work/a.txt')).toBe('mine, edited again');
});
