/**
 * `agentdesk sync <folder> --agent <id> [--once]`, spawned as its own process through the real
 * `bin/agentdesk.js`, against the real local service (see cli-harness.ts).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from './cli-harness';

const w = useCliWorld();

describe('agentdesk sync', () => {
  it('--once syncs both ways, prints progress, keeps its state in the data folder and exits 0', async () => {
    await w.writeRemote('from-agent.txt', 'theirs');
    await w.writeLocal('work/from-me.txt', 'mine');
    const result = await w.syncOnce();
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/Syncing .* with .*\(machine agent\)/);
    expect(result.out).toMatch(/Syncing \d+ changes…/);
    expect(result.out).toMatch(/In step at/);
    expect(await readFile(join(w.folder, 'work/from-agent.txt'), 'utf8')).toBe('theirs');
    expect(await w.readRemote('from-me.txt')).toBe('mine');
    expect(existsSync(join(w.folder, 'instructions.md'))).toBe(true);
    // The state is in the app's data w.folder, never in the synced w.folder.
    expect((await readdir(join(w.dataDir, 'sync'))).some((name) => name.endsWith('.db'))).toBe(true);
    expect((await readdir(w.folder)).sort()).toEqual(['.agentdesk', 'instructions.md', 'mcp.json', 'work']);

    // A second run has nothing to do.
    const again = await w.syncOnce();
    expect(again.code).toBe(0);
    expect(again.out).not.toMatch(/Syncing \d+ change/);
  }, 90_000);

  it('--once exits 3 and names the conflict when both sides changed a file differently', async () => {
    await w.writeRemote('notes.md', 'the agent wrote this');
    await w.writeLocal('work/notes.md', 'I wrote this instead');
    const result = await w.syncOnce();
    expect(result.code).toBe(3);
    expect(result.out).toMatch(/Conflict: work\/notes\.md changed on both sides/);
    const copies = (await readdir(join(w.folder, 'work'))).filter((n) => n.includes('.conflict-remote-'));
    expect(copies).toHaveLength(1);
    expect(await readFile(join(w.folder, 'work', copies[0]!), 'utf8')).toBe('the agent wrote this');
    expect(await readFile(join(w.folder, 'work/notes.md'), 'utf8')).toBe('I wrote this instead');
    expect(await w.readRemote('notes.md')).toBe('the agent wrote this');
    // Still open on the next run: still non-zero.
    expect((await w.syncOnce()).code).toBe(3);
  }, 90_000);

  it('--once pauses on a mass deletion and goes ahead with --confirm-deletes', async () => {
    for (const n of [1, 2, 3, 4]) await w.writeRemote(`bulk/${n}.txt`, `file ${n}`);
    expect((await w.syncOnce()).code).toBe(0);
    await rm(join(w.folder, 'work/bulk'), { recursive: true });
    const paused = await w.syncOnce();
    expect(paused.code).toBe(1);
    expect(paused.err).toMatch(/Paused: This sync would delete 4 of/);
    expect(paused.err).toMatch(/--confirm-deletes/);
    expect(await w.readRemote('bulk/1.txt')).toBe('file 1');
    const confirmed = await w.syncOnce('--confirm-deletes');
    expect(confirmed.code).toBe(0);
    expect(await w.readRemote('bulk/1.txt')).toBeUndefined();
  }, 90_000);

  it('without --once it keeps watching: a saved file is uploaded, a remote delete goes to the trash, Ctrl-C stops it', async () => {
    await w.writeRemote('old.txt', 'going away');
    const cli = w.startCli([w.folder, '--agent', w.agentId, '--server', w.service.url, '--interval', '0.3']);
    try {
      await cli.waitFor('Watching for changes');
      expect(await readFile(join(w.folder, 'work/old.txt'), 'utf8')).toBe('going away');

      await w.writeLocal('work/saved.txt', 'saved in my editor');
      expect(await w.until(() => w.readRemote('saved.txt'))).toBe('saved in my editor');

      const delOld = await w.api.deleteWorkspaceFile(w.agentId, 'old.txt');
      expect(delOld.ok).toBe(true);
      const trashFiles = join(w.home, '.local', 'share', 'Trash', 'files');
      const trashed = await w.until(async () => {
        const names = await readdir(trashFiles).catch(() => []);
        return names.length > 0 ? names : undefined;
      });
      expect(await readFile(join(trashFiles, trashed[0]!), 'utf8')).toBe('going away');
      expect(existsSync(join(w.folder, 'work/old.txt'))).toBe(false);
    } finally {
      cli.child.kill('SIGINT');
    }
    const result = await cli.finished;
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/Stopping\./);
  }, 90_000);

  it('explains bad arguments (exit 2) and a token the service refuses (exit 1)', async () => {
    const noAgent = await w.startCli([w.folder, '--server', w.service.url, '--once']).finished;
    expect(noAgent.code).toBe(2);
    expect(noAgent.err).toMatch(/--agent <id>/);

    const noToken = await w.startCli([w.folder, '--agent', w.agentId, '--server', w.service.url, '--once'], {
      AGENTDESK_TOKEN: '',
    }).finished;
    expect(noToken.code).toBe(2);
    expect(noToken.err).toMatch(/agent token/);

    const refused = await w.startCli([w.folder, '--agent', w.agentId, '--server', w.service.url, '--once'], {
      AGENTDESK_TOKEN: 'gat_not-a-real-token',
    }).finished;
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/Could not reach agent/);
    expect(existsSync(join(w.folder, '.agentdesk'))).toBe(false);
  }, 90_000);
});
