/**
 * The app's side of "one owner per folder": a remembered folder that a real `agentdesk sync`
 * process holds is listed by the app's SyncManager with an error status naming that process, and
 * taken over by itself (no restart, no call) once the process ends. Any other start failure is an
 * error status with a plain reason too, never silence. Real CLI process, real local service, real
 * disk; the app's OS trash is the only stand-in (nothing is deleted here).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SyncManager, type SyncFolderState } from '../../../src/core/sync/folders/sync-manager';
import { useCliWorld } from './cli-harness';

const w = useCliWorld();

const app = (dataDir: string, onStatus?: (state: SyncFolderState) => void) =>
  new SyncManager({
    dataDir,
    api: w.api,
    trash: async () => undefined,
    retryMs: 300, // the app's default is 10 s
    ...(onStatus ? { onStatus } : {}),
  });

describe('a remembered folder another process holds', () => {
  it('shows who holds it, keeps saying so on a retry, and takes it over once that process ends', async () => {
    const dataDir = join(w.scratch, `app-held-${process.hrtime.bigint()}`);
    const first = app(dataDir);
    expect((await first.setFolder(w.agentId, w.folder)).status.state).toBe('idle');
    await first.close();

    // The CLI syncs the folder (its marker names the app's state, so they share one lock).
    const cli = w.startCli([w.folder, '--server', w.service.url]);
    const pushed: SyncFolderState[] = [];
    const second = app(dataDir, (state) => pushed.push(state));
    try {
      await cli.waitFor('Watching for changes');
      await second.start();
      const held = second.get(w.agentId)!;
      expect(held.status).toMatchObject({
        state: 'error',
        notStarted: { reason: 'held' },
        message: expect.stringContaining(
          `Another AgentDesk process is syncing this folder: agentdesk sync (command line), process ${cli.child.pid}`,
        ),
      });
      expect(held.root).toBe(w.folder);
      expect(held.agentName).not.toBe('');
      expect(second.list().map((f) => f.agentId)).toEqual([w.agentId]);
      expect(pushed.some((s) => s.status.notStarted?.reason === 'held')).toBe(true);
      // Trying again while it is still held says so again; acting on it says why it cannot.
      expect((await second.syncNow(w.agentId))?.status.notStarted?.reason).toBe('held');
      await expect(second.pause(w.agentId)).rejects.toThrow(/has not started for this folder yet/);
      // Choosing the folder again meanwhile keeps it, held, rather than failing and forgetting it.
      const chosen = await second.setFolder(w.agentId, w.folder);
      expect(chosen.status.notStarted?.reason).toBe('held');
      expect(JSON.parse(await readFile(join(dataDir, 'sync', 'folders.json'), 'utf8'))).toEqual([
        expect.objectContaining({ agentId: w.agentId, root: w.folder }),
      ]);
      // The history is the shared state's: readable while the other process syncs.
      expect(second.historyUse(w.agentId).capBytes).toBe(1024 * 1024 * 1024);

      cli.child.kill('SIGINT');
      await cli.finished;
      // No call: the retry timer takes the folder over.
      await w.until(async () => (second.get(w.agentId)?.status.state === 'idle' ? true : undefined));
      expect(second.get(w.agentId)?.status.notStarted).toBeUndefined();
      // ... and it really syncs: a saved file reaches the agent.
      await mkdir(join(w.folder, 'work'), { recursive: true });
      await writeFile(join(w.folder, 'work', 'after-takeover.txt'), 'the app syncs again');
      expect(await w.until(() => w.readRemote('after-takeover.txt'))).toBe('the app syncs again');
    } finally {
      cli.child.kill('SIGKILL');
      await second.close();
    }
  }, 90_000);

  it('a remembered folder that cannot start for another reason says why, and tries again later', async () => {
    const dataDir = join(w.scratch, `app-failed-${process.hrtime.bigint()}`);
    await mkdir(join(dataDir, 'sync'), { recursive: true });
    await writeFile(
      join(dataDir, 'sync', 'folders.json'),
      JSON.stringify([{ agentId: 'no-such-agent', root: w.folder }]),
    );
    const manager = app(dataDir);
    try {
      await manager.start();
      const state = manager.get('no-such-agent')!;
      expect(state.status.state).toBe('error');
      expect(state.status.notStarted).toMatchObject({ reason: 'failed' });
      expect(state.status.message).toMatch(/^Sync could not reach the agent\. Reading the agent: /);
      expect(state.status.notStarted!.nextTryAt).toBeGreaterThan(Date.now());
      // Stopping it forgets it, with its timer.
      await manager.removeFolder('no-such-agent');
      expect(manager.list()).toEqual([]);
    } finally {
      await manager.close();
    }
  }, 60_000);

  it('a synced folder that was deleted says so, and choosing it again starts afresh without deleting anything', async () => {
    const dataDir = join(w.scratch, `app-gone-${process.hrtime.bigint()}`);
    await w.writeRemote('kept.txt', 'the agent keeps this');
    const manager = app(dataDir);
    try {
      await manager.setFolder(w.agentId, w.folder);
      expect(await readFile(join(w.folder, 'work', 'kept.txt'), 'utf8')).toBe('the agent keeps this');
      await rm(w.folder, { recursive: true, force: true });
      const gone = (await manager.syncNow(w.agentId))!;
      expect(gone.status).toMatchObject({ state: 'error', message: expect.stringContaining('is gone') });
      expect(await w.readRemote('kept.txt')).toBe('the agent keeps this');

      // The message says to choose the folder again: that works, and the agent's files come back.
      const again = await manager.setFolder(w.agentId, w.folder);
      expect(again.status.state).toBe('idle');
      expect(await readFile(join(w.folder, 'work', 'kept.txt'), 'utf8')).toBe('the agent keeps this');
      expect(await w.readRemote('kept.txt')).toBe('the agent keeps this');
    } finally {
      await manager.close();
    }
  }, 60_000);

  it('deletions held for confirmation can be undone instead: the files come back from the agent', async () => {
    const dataDir = join(w.scratch, `app-undo-${process.hrtime.bigint()}`);
    const names = Array.from({ length: 22 }, (_, i) => `note-${i}.txt`);
    for (const name of names) await w.writeRemote(name, `kept ${name}`);
    const manager = app(dataDir);
    try {
      await manager.setFolder(w.agentId, w.folder);
      // Paused while the 22 files go one by one: on a busy machine the watcher would otherwise run a
      // cycle after the first few, which (below the guard's threshold) deletes those on the agent.
      await manager.pause(w.agentId);
      for (const name of names) await rm(join(w.folder, 'work', name));
      await manager.resume(w.agentId);
      const held = (await manager.syncNow(w.agentId))!;
      expect(held.status.pendingDeletes).toMatchObject({ side: 'remote', deletes: 22 });
      await expect(manager.bringBackDeleted('nobody')).rejects.toThrow(/no sync folder/);

      const back = await manager.bringBackDeleted(w.agentId);
      expect(back.pendingDeletes).toBeUndefined();
      for (const name of names) {
        expect(await readFile(join(w.folder, 'work', name), 'utf8')).toBe(`kept ${name}`);
        expect(await w.readRemote(name)).toBe(`kept ${name}`);
      }
      // Nothing is waiting any more, so there is nothing to bring back.
      await expect(manager.bringBackDeleted(w.agentId)).rejects.toThrow('No deletions are waiting for you.');
    } finally {
      await manager.close();
    }
  }, 60_000);
});
