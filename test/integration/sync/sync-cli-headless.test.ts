/**
 * Issue 12, items 3, 5, 6 and 7 from the command line, each a real `agentdesk sync` process:
 * a headless person lists and settles conflicts, gets kept versions back, is told who holds a
 * folder, gets the agent's writes within seconds while watching, and `--once` exits 0 with files
 * that cannot be carried.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SyncManager } from '../../../src/core/sync/folders/sync-manager';
import { useCliWorld } from './cli-harness';

const w = useCliWorld();
const read = (path: string) => readFile(join(w.folder, path), 'utf8');

describe('agentdesk sync, headless', () => {
  it('--help lists every sync command', async () => {
    const help = await w.startCli(['--help']).finished;
    expect(help.code).toBe(0);
    for (const command of [
      'conflicts <folder>',
      'resolve <folder> <path> --keep mine|theirs|both',
      'history <folder>',
      'restore <folder> <path>',
    ])
      expect(help.out).toContain(`agentdesk sync ${command}`);
  }, 90_000);

  it('lists open conflicts and resolves one from the command line', async () => {
    await w.writeRemote('notes.md', 'the agent wrote this');
    await w.writeLocal('work/notes.md', 'I wrote this instead');
    const first = await w.syncOnce();
    expect(first.code).toBe(3);
    expect(first.out).toMatch(/agentdesk sync resolve <folder> work\/notes\.md --keep/);

    // The agent is known from the folder now: no --agent needed.
    const listed = await w.startCli(['conflicts', w.folder]).finished;
    expect(listed.code).toBe(3);
    expect(listed.out).toMatch(
      /^work\/notes\.md {2}\(since .*the agent's version is in work\/notes\.conflict-remote-/m,
    );

    const resolved = await w.startCli([
      'resolve',
      w.folder,
      'work/notes.md',
      '--keep',
      'theirs',
      '--server',
      w.service.url,
    ]).finished;
    expect(resolved.err).toBe('');
    expect(resolved.code).toBe(0);
    expect(resolved.out).toMatch(/Resolved work\/notes\.md: kept theirs/);
    expect(await read('work/notes.md')).toBe('the agent wrote this');
    expect((await readdir(join(w.folder, 'work'))).filter((n) => n.includes('.conflict-remote-'))).toEqual(
      [],
    );
    expect((await w.startCli(['conflicts', w.folder]).finished).code).toBe(0);
    expect((await w.syncOnce()).code).toBe(0);

    // The version it dropped is in the history, and comes back with restore.
    const history = await w.startCli(['history', w.folder, 'work/notes.md']).finished;
    expect(history.code).toBe(0);
    expect(history.out).toMatch(/#\d+ .* yours /);
    const mine = /#(\d+) [^\n]* yours /.exec(history.out)![1]!;
    const restored = await w.startCli(['restore', w.folder, 'work/notes.md', '--version', mine]).finished;
    expect(restored.code).toBe(0);
    expect(await read('work/notes.md')).toBe('I wrote this instead');
    expect((await w.syncOnce()).code).toBe(0);
    expect(await w.readRemote('notes.md')).toBe('I wrote this instead');
  }, 90_000);

  it('a second process on the same folder says plainly who holds it and changes nothing', async () => {
    await w.writeRemote('a.txt', 'a');
    const watcher = w.startCli([w.folder, '--agent', w.agentId, '--server', w.service.url]);
    try {
      await watcher.waitFor('Watching for changes');
      const second = await w.syncOnce();
      expect(second.code).toBe(1);
      expect(second.err).toContain(
        `is already being synced by agentdesk sync (command line) (process ${watcher.child.pid}`,
      );
      expect(second.out).not.toMatch(/Syncing \d+ change/);
    } finally {
      watcher.child.kill('SIGINT');
    }
    await watcher.finished;
    // Released on exit: the next run goes ahead.
    expect((await w.syncOnce()).code).toBe(0);
  }, 90_000);

  it('the app and the CLI share the folder: the CLI names the app while it syncs, then sees its conflicts', async () => {
    // The desktop app's sync manager, in this process, with a data folder of its own.
    const app = new SyncManager({
      dataDir: join(w.scratch, `app-data-${process.hrtime.bigint()}`),
      api: w.api,
      trash: async () => undefined, // the app's OS trash; nothing is deleted in this test
    });
    await w.writeRemote('shared.txt', 'the agent wrote this');
    await w.writeLocal('work/shared.txt', 'I wrote this instead');
    try {
      const state = await app.setFolder(w.agentId, w.folder);
      expect(state.status.conflicts.map((c) => c.path)).toEqual(['work/shared.txt']);
      const busy = await w.syncOnce();
      expect(busy.code).toBe(1);
      expect(busy.err).toContain(`is already being synced by the AgentDesk app (process ${process.pid}`);
    } finally {
      await app.close();
    }
    const listed = await w.startCli(['conflicts', w.folder]).finished;
    expect(listed.code).toBe(3);
    expect(listed.out).toMatch(/^work\/shared\.txt /m);
  }, 90_000);

  it('a lock left by a killed process is stale and taken over', async () => {
    const watcher = w.startCli([w.folder, '--agent', w.agentId, '--server', w.service.url]);
    await watcher.waitFor('Watching for changes');
    watcher.child.kill('SIGKILL');
    await watcher.finished;
    expect((await w.syncOnce()).code).toBe(0);
  }, 90_000);

  it("in watch mode the agent's writes arrive within 5 s, long before the 30 s re-read", async () => {
    const watcher = w.startCli([
      w.folder,
      '--agent',
      w.agentId,
      '--server',
      w.service.url,
      '--interval',
      '30',
    ]);
    try {
      await watcher.waitFor('Watching for changes');
      const wrote = Date.now();
      await w.writeRemote('from-the-agent.txt', 'written during a turn');
      await w.until(() => read('work/from-the-agent.txt').catch(() => undefined), 5000);
      expect(Date.now() - wrote).toBeLessThan(5000);
    } finally {
      watcher.child.kill('SIGINT');
    }
    await watcher.finished;
  }, 90_000);

  it('--once exits 0 with files it cannot carry, and names each with the reason', async () => {
    await w.writeLocal('work/empty.txt', '');
    await w.writeLocal('notes.txt', 'outside the layout');
    const result = await w.syncOnce();
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/Not synced: notes\.txt \(outside the layout/);
    expect(result.out).toMatch(/Not synced: work\/empty\.txt \(empty/);
    await writeFile(join(w.folder, 'work/empty.txt'), 'now it has content');
    expect((await w.syncOnce()).code).toBe(0);
    expect(await w.readRemote('empty.txt')).toBe('now it has content');
  }, 90_000);
});
