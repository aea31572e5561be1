/**
 * Issue 12, items 1, 2, 5 and 6 for a person who has only a terminal: the real `agentdesk sync`
 * processes (cli-harness.ts) against the real local service. Conflicts settled each way from the
 * command line, also while another terminal watches the folder; two watchers started together;
 * saves landing while the agent's newer version comes down, found afterwards in the folder, a
 * conflict copy or `agentdesk sync history`.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SyncManager } from '../../../src/core/sync/folders/sync-manager';
import { useCliWorld } from './cli-harness';

const w = useCliWorld();
const read = (path: string) => readFile(join(w.folder, path), 'utf8');
const workNames = () => readdir(join(w.folder, 'work'));
/** Lock files in the data folder's sync state (the folder's state lives there, named by its marker). */
const lockFiles = async () =>
  (await readdir(join(w.dataDir, 'sync')).catch(() => [])).filter((n) => n.endsWith('.lock'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Both sides changed work/notes.md differently, and one `--once` saw it: exit 3. */
async function conflictOnNotes() {
  await w.writeRemote('notes.md', 'the agent wrote this');
  await w.writeLocal('work/notes.md', 'I wrote this instead');
  expect((await w.syncOnce()).code).toBe(3);
}

const resolve = (keep: string) =>
  w.startCli(['resolve', w.folder, 'work/notes.md', '--keep', keep, '--server', w.service.url]).finished;

describe('settling conflicts from the command line', () => {
  it('--keep mine sends mine; the agent’s version goes to the history, its copy goes away', async () => {
    await conflictOnNotes();
    const resolved = await resolve('mine');
    expect(resolved.err).toBe('');
    expect(resolved.code).toBe(0);
    expect(resolved.out).toMatch(/Resolved work\/notes\.md: kept mine/);
    expect(await w.readRemote('notes.md')).toBe('I wrote this instead');
    expect(await read('work/notes.md')).toBe('I wrote this instead');
    expect((await workNames()).filter((n) => n.includes('conflict'))).toEqual([]);
    expect((await w.startCli(['conflicts', w.folder]).finished).out).toMatch(/No open conflicts/);
    const history = await w.startCli(['history', w.folder, 'work/notes.md']).finished;
    expect(history.out).toMatch(/#\d+ +.+ +the agent's +20 B/);
    expect((await w.syncOnce()).code).toBe(0);
  }, 90_000);

  it('--keep both keeps mine beside it as name.mine-<time>.ext and puts the agent’s at the path', async () => {
    await conflictOnNotes();
    const resolved = await resolve('both');
    expect(resolved.code).toBe(0);
    expect(resolved.out).toMatch(/Resolved work\/notes\.md: kept both versions/);
    expect(await read('work/notes.md')).toBe('the agent wrote this');
    const mine = (await workNames()).filter((n) => /^notes\.mine-\d{8}-\d{6}\.md$/.test(n));
    expect(mine).toHaveLength(1);
    expect(await read(`work/${mine[0]}`)).toBe('I wrote this instead');
    expect((await w.syncOnce()).code).toBe(0);
    expect(await w.readRemote(mine[0]!)).toBe('I wrote this instead');
    expect(await w.readRemote('notes.md')).toBe('the agent wrote this');
  }, 90_000);

  it('resolve while `agentdesk sync` watches in another terminal: the watcher settles it', async () => {
    await conflictOnNotes();
    const watcher = w.startCli([w.folder, '--server', w.service.url]);
    try {
      await watcher.waitFor('Watching for changes');
      const resolved = await resolve('theirs');
      expect(resolved.err).toBe('');
      expect(resolved.code).toBe(0);
      expect(resolved.out).toContain(
        `agentdesk sync (command line) (process ${watcher.child.pid}) syncs this folder: it settles work/notes.md now.`,
      );
      expect(resolved.out).toMatch(/Resolved work\/notes\.md: kept theirs/);
      expect(await read('work/notes.md')).toBe('the agent wrote this');
      expect((await w.startCli(['conflicts', w.folder]).finished).code).toBe(0);
      // The watcher goes on: a save after the resolution reaches the agent.
      await writeFile(join(w.folder, 'work/notes.md'), 'edited after settling');
      await w.until(async () =>
        (await w.readRemote('notes.md')) === 'edited after settling' ? true : undefined,
      );
    } finally {
      watcher.child.kill('SIGINT');
    }
    const stopped = await watcher.finished;
    expect(stopped.code).toBe(0);
    expect(stopped.err).not.toMatch(/Error:/);
  }, 90_000);

  it('resolve while the app syncs the folder: the app settles it, with no token on the command line', async () => {
    await conflictOnNotes();
    const app = new SyncManager({
      dataDir: join(w.scratch, `app-data-${process.hrtime.bigint()}`),
      api: w.api,
      trash: async () => undefined, // the app's OS trash (Electron's shell); --keep both deletes nothing
    });
    try {
      await app.setFolder(w.agentId, w.folder);
      const resolved = await w.startCli(['resolve', w.folder, 'work/notes.md', '--keep', 'both'], {
        AGENTDESK_TOKEN: '',
      }).finished;
      expect(resolved.err).toBe('');
      expect(resolved.code).toBe(0);
      expect(resolved.out).toContain(`the AgentDesk app (process ${process.pid}) syncs this folder`);
      expect(await read('work/notes.md')).toBe('the agent wrote this');
      expect((await workNames()).filter((n) => n.startsWith('notes.mine-'))).toHaveLength(1);
    } finally {
      await app.close();
    }
  }, 90_000);
});

describe('two processes on one folder', () => {
  it('two watchers started together: one syncs, the other names it with its pid and changes nothing', async () => {
    await w.writeRemote('a.txt', 'a');
    const args = [w.folder, '--agent', w.agentId, '--server', w.service.url];
    const [one, two] = [w.startCli(args), w.startCli(args)];
    try {
      const first = await Promise.race([
        one.finished.then(() => ({ stopped: one, running: two })),
        two.finished.then(() => ({ stopped: two, running: one })),
      ]);
      const stopped = await first.stopped.finished;
      expect(stopped.code).toBe(1);
      expect(stopped.err).toContain(`(process ${first.running.child.pid}`);
      expect(stopped.err).toMatch(/is already being synced by agentdesk sync \(command line\)/);
      await first.running.waitFor('Watching for changes');
      expect(first.running.output()).not.toMatch(/database is locked/i);
      expect(await read('work/a.txt')).toBe('a');
    } finally {
      one.child.kill('SIGINT');
      two.child.kill('SIGINT');
    }
    await Promise.all([one.finished, two.finished]);
  }, 90_000);

  it('a watcher stopped with SIGTERM (as a service manager stops it) ends cleanly and frees the folder', async () => {
    const watcher = w.startCli([w.folder, '--agent', w.agentId, '--server', w.service.url]);
    await watcher.waitFor('Watching for changes');
    watcher.child.kill('SIGTERM');
    const stopped = await watcher.finished;
    expect(stopped.code).toBe(0);
    expect(stopped.out).toMatch(/Stopping\./);
    expect(await lockFiles()).toEqual([]);
    expect((await w.syncOnce()).code).toBe(0);
  }, 90_000);
});

describe('no version is lost while the agent writes', () => {
  it("saves landing while the agent's newer version comes down are all kept somewhere", async () => {
    await w.writeLocal('work/draft.md', 'start');
    const watcher = w.startCli([
      w.folder,
      '--agent',
      w.agentId,
      '--server',
      w.service.url,
      '--interval',
      '30',
    ]);
    const saves: string[] = [];
    try {
      await watcher.waitFor('Watching for changes');
      await w.until(async () => ((await w.readRemote('draft.md')) === 'start' ? true : undefined));
      // The agent writes a large version; the person keeps saving meanwhile, each save a size of its own.
      const agents = 'A'.repeat(3 * 1024 * 1024);
      const agentWrite = w.writeRemote('draft.md', agents);
      for (let i = 0; i < 60; i += 1) {
        saves.push(`save ${i} `.padEnd(100 + i * 7, '.'));
        await writeFile(join(w.folder, 'work/draft.md'), saves[i]!);
        await sleep(50);
      }
      await agentWrite;
      // Settled: both sides hold the same thing, or the watcher reported the conflict.
      await w.until(async () => {
        if (/Conflict: work\/draft\.md/.test(watcher.output())) return true;
        const [here, there] = [await read('work/draft.md'), await w.readRemote('draft.md')];
        return here === there ? true : undefined;
      }, 20_000);
    } finally {
      watcher.child.kill('SIGINT');
    }
    const out = (await watcher.finished).out;
    const present = [await read('work/draft.md')];
    for (const name of await workNames()) if (name !== 'draft.md') present.push(await read(`work/${name}`));
    const history = (await w.startCli(['history', w.folder, 'work/draft.md']).finished).out;
    const kept = (text: string) =>
      present.includes(text) || new RegExp(` ${Buffer.byteLength(text)} B\\n`).test(history);
    // The last save and the agent's version are never lost; the sync never silently drops a save.
    expect(kept(saves.at(-1)!), `${out}\n${history}`).toBe(true);
    expect(present.includes('A'.repeat(3 * 1024 * 1024)) || / 3\.0 MB\n/.test(history)).toBe(true);
  }, 90_000);
});
