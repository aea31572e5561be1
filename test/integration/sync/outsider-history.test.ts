/**
 * Issue 12, items 2 and 6 from a terminal, as the README tells it: `agentdesk sync --watch` in
 * one terminal, `agentdesk sync history` and `restore` in another, all real processes
 * (cli-harness.ts) against the real local service; and `--help` naming everything the README's
 * sync section names.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from './cli-harness';

const w = useCliWorld();
const read = (path: string) => readFile(join(w.folder, path), 'utf8').catch(() => undefined);
const history = async (...args: string[]) => (await w.startCli(['history', w.folder, ...args]).finished).out;

describe('the version history from the command line', () => {
  it('restores a version the agent overwrote while another terminal watches; the watcher sends it back', async () => {
    await w.writeLocal('work/essay.md', 'my first draft');
    const watcher = w.startCli([w.folder, '--agent', w.agentId, '--server', w.service.url, '--watch']);
    try {
      await watcher.waitFor('Watching for changes');
      await w.until(async () => ((await w.readRemote('essay.md')) === 'my first draft' ? true : undefined));
      await w.writeRemote('essay.md', "the agent's rewrite");
      await w.until(
        async () => ((await read('work/essay.md')) === "the agent's rewrite" ? true : undefined),
        5000,
      );

      const kept = await history('work/essay.md');
      expect(kept).toMatch(/^work\/essay\.md$/m);
      expect(kept).toMatch(/^ {2}#\d+ {2}.+ {2}yours {2}14 B$/m);

      const restored = await w.startCli(['restore', w.folder, 'work/essay.md']).finished;
      expect(restored.err).toBe('');
      expect(restored.code).toBe(0);
      expect(restored.out).toMatch(
        new RegExp(
          `agentdesk sync \\(command line\\) \\(process ${watcher.child.pid}\\) sends it to the agent now`,
        ),
      );
      expect(await read('work/essay.md')).toBe('my first draft');
      await w.until(
        async () => ((await w.readRemote('essay.md')) === 'my first draft' ? true : undefined),
        5000,
      );
      // The version the restore replaced is kept too.
      expect(await history('work/essay.md')).toMatch(/ {2}the agent's {2}19 B$/m);
    } finally {
      watcher.child.kill('SIGINT');
    }
    const stopped = await watcher.finished;
    expect(stopped.code).toBe(0);
    expect(stopped.err).toBe('');
  }, 90_000);

  it('a file deleted here (and so on the agent) comes back with restore, and the next run sends it', async () => {
    await w.writeLocal('work/gone.md', 'I will miss this');
    expect((await w.syncOnce()).code).toBe(0);
    await rm(join(w.folder, 'work/gone.md'));
    expect((await w.syncOnce()).code).toBe(0);
    expect(await w.readRemote('gone.md')).toBeUndefined();
    expect(await history('work/gone.md')).toMatch(/#\d+ {2}.+ {2}16 B$/m);
    const restored = await w.startCli(['restore', w.folder, 'work/gone.md']).finished;
    expect(restored.code, restored.err).toBe(0);
    expect(restored.out).toMatch(/The next sync sends it to the agent/);
    expect(await read('work/gone.md')).toBe('I will miss this');
    expect((await w.syncOnce()).code).toBe(0);
    expect(await w.readRemote('gone.md')).toBe('I will miss this');
  }, 90_000);

  it('history --cap sets the size cap and says what the history holds; a path with no versions says so', async () => {
    await w.writeLocal('work/a.md', 'a');
    expect((await w.syncOnce()).code).toBe(0);
    const capped = await history('--cap', '5');
    expect(capped).toMatch(/now keeps at most 5 MB/);
    expect(capped).toMatch(/The history holds .* of at most 5 MB/);
    expect(await history('work/a.md')).toMatch(/No kept versions of work\/a\.md/);
    const wrong = await w.startCli(['history', w.folder, '--cap', 'lots']).finished;
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/--cap takes a size in MB/);
    const missing = await w.startCli(['restore', w.folder, 'work/a.md', '--version', '999']).finished;
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/has no version 999/);
  }, 90_000);
});

describe('agentdesk sync --help', () => {
  it("names every command and option of the README's sync section", async () => {
    const help = await w.startCli(['--help']).finished;
    expect(help.code).toBe(0);
    for (const text of [
      'agentdesk sync <folder> --agent <id> [--once]',
      'agentdesk sync conflicts <folder>',
      'agentdesk sync resolve <folder> <path> --keep mine|theirs|both',
      'agentdesk sync history <folder> [path]',
      'agentdesk sync restore <folder> <path> [--version <n>]',
      '--cap <MB>',
      '--confirm-deletes',
      '--server <url>',
      '--token <gat_…>',
      'AGENTDESK_SERVER',
      'AGENTDESK_TOKEN',
      '--watch',
      '--once',
    ])
      expect(help.out, text).toContain(text);
    const both = await w.startCli([w.folder, '--once', '--watch']).finished;
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/--once and --watch cannot go together/);
  }, 90_000);
});
