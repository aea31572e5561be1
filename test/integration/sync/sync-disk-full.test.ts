/**
 * Issue 38, a full disk, for sync: `agentdesk sync` watching (the real CLI process), with the sync folder, then
 * AgentDesk's data folder (its state and version history), on a real small tmpfs that the test fills while the
 * agent changes files. The CLI says which disk is full, downloads nothing half, deletes nothing, keeps its state,
 * and goes on by itself once there is space. Mounting needs root on Linux: elsewhere each test is skipped and its
 * name says why.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mountSmallDisk, type SmallDisk } from '../../support/small-disk';
import { useCliWorld } from './cli-harness';

const disk = await mountSmallDisk(4);
const cannot = 'cannot' in disk ? disk.cannot : undefined;
const skipped = cannot ? ` (skipped: ${cannot})` : '';
const small = disk as SmallDisk;

const w = useCliWorld();
afterAll(async () => {
  if (!cannot) await small.unmount();
});

const BIG = 'the agent wrote this\n'.repeat(20_000);
const readLocal = (path: string) => readFile(join(w.folder, path), 'utf8').catch(() => undefined);
const tempFiles = async (dir: string) =>
  (await readdir(dir, { recursive: true })).filter((p) => p.split('/').pop()!.startsWith('.agentdesk-tmp-'));

/** Watches `w.folder`, synced once with the agent's keep.txt; the person's mine.txt sent up. */
async function watchInStep(env: Record<string, string> = {}) {
  await w.writeRemote('keep.txt', 'agent v1');
  await w.writeLocal('work/mine.txt', 'my notes');
  const cli = w.startCli([w.folder, '--agent', w.agentId, '--server', w.service.url], env);
  await cli.waitFor('Watching for changes', 30_000);
  await w.until(async () =>
    (await readLocal('work/keep.txt')) === 'agent v1' && (await w.readRemote('mine.txt')) === 'my notes'
      ? true
      : undefined,
  );
  return cli;
}

describe('`agentdesk sync` on a full disk', () => {
  it.skipIf(Boolean(cannot))(
    `the sync folder's disk: pauses naming it, loses nothing, goes on once there is space${skipped}`,
    async () => {
      w.folder = join(small.dir, 'folder');
      const cli = await watchInStep();
      try {
        await small.fill();
        await w.writeRemote('keep.txt', `agent v2\n${BIG}`);
        await w.writeRemote('new.txt', BIG);
        await cli.waitFor(`Paused: The disk holding the sync folder (${w.folder}) is full.`, 30_000);
        expect(cli.output()).toContain(
          'nothing was deleted, and sync goes on by itself once there is space.',
        );
        expect(await readLocal('work/keep.txt')).toBe('agent v1');
        expect(await readLocal('work/mine.txt')).toBe('my notes');
        expect(await readLocal('work/new.txt')).toBeUndefined();
        expect(await tempFiles(w.folder)).toEqual([]);
        expect(await w.readRemote('mine.txt')).toBe('my notes');

        await small.free();
        await cli.waitFor(
          `There is space again on the disk holding the sync folder (${w.folder}); sync goes on.`,
          30_000,
        );
        await w.until(async () =>
          (await readLocal('work/keep.txt')) === `agent v2\n${BIG}` &&
          (await readLocal('work/new.txt')) === BIG
            ? true
            : undefined,
        );
        expect(await readLocal('work/mine.txt')).toBe('my notes');
        expect(await w.readRemote('mine.txt')).toBe('my notes');
        expect(cli.output()).not.toMatch(/^Error:/m);
      } finally {
        cli.child.kill('SIGINT');
        await cli.finished;
      }
    },
    120_000,
  );

  it.skipIf(Boolean(cannot))(
    `AgentDesk's data disk (the sync's state and history): pauses naming it, loses nothing, goes on${skipped}`,
    async () => {
      const data = join(small.dir, 'data');
      const records = join(data, 'sync');
      const cli = await watchInStep({ AGENTDESK_DATA: data });
      try {
        await small.fill();
        await w.writeRemote('keep.txt', `agent v2\n${BIG}`);
        await cli.waitFor(`Paused: The disk holding AgentDesk's data (${records}) is full.`, 30_000);
        expect(await readLocal('work/mine.txt')).toBe('my notes');
        expect(await w.readRemote('mine.txt')).toBe('my notes');

        await small.free();
        await cli.waitFor(
          `There is space again on the disk holding AgentDesk's data (${records}); sync goes on.`,
          30_000,
        );
        await w.until(async () =>
          (await readLocal('work/keep.txt')) === `agent v2\n${BIG}` ? true : undefined,
        );
        // The state kept: an edit of the person's goes up as an edit, no conflict copy, nothing deleted.
        await w.writeLocal('work/mine.txt', 'my notes, later');
        await w.until(async () =>
          (await w.readRemote('mine.txt')) === 'my notes, later' ? true : undefined,
        );
        expect((await readdir(join(w.folder, 'work'))).sort()).toEqual(['keep.txt', 'mine.txt']);
        expect(cli.output()).not.toMatch(/^Error:/m);
      } finally {
        cli.child.kill('SIGINT');
        await cli.finished;
      }
    },
    120_000,
  );
});
