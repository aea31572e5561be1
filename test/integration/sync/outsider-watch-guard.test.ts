/**
 * Issue 12, item 10 while `agentdesk sync` watches (the real process, cli-harness.ts, against the
 * real local service): a mass deletion in the folder waits, and says so, while every other change
 * of the folder and of the agent keeps flowing; the next run with --confirm-deletes carries it out.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from './cli-harness';

const w = useCliWorld();
const read = (path: string) => readFile(join(w.folder, path), 'utf8').catch(() => undefined);
const remoteIs = (path: string, text: string | undefined) =>
  w.until(async () => ((await w.readRemote(path)) === text ? true : undefined));
const localIs = (path: string, text: string) =>
  w.until(async () => ((await read(path)) === text ? true : undefined));

describe('the mass-delete pause while watching', () => {
  it('holds only the deletes: saves and the agent’s writes go on, and the pause is not said over and over', async () => {
    for (let i = 0; i < 25; i += 1) await w.writeRemote(`old/${i}.txt`, `old ${i}`);
    await w.writeRemote('kept.md', 'v1');
    const watcher = w.startCli([w.folder, '--agent', w.agentId, '--server', w.service.url]);
    try {
      await watcher.waitFor('Watching for changes');
      await rm(join(w.folder, 'work/old'), { recursive: true });
      // Waited for by its words: the count is the sync's to say (a busy machine may show the removal in parts).
      await watcher.waitFor(/Paused: This sync would delete \d+ of/);
      await watcher.waitFor('To go ahead, stop this run (Ctrl-C) and start it again with --confirm-deletes.');

      await writeFile(join(w.folder, 'work/kept.md'), 'v2, saved while paused');
      await remoteIs('kept.md', 'v2, saved while paused');
      await w.writeRemote('from-agent.md', 'written by the agent while paused');
      await localIs('work/from-agent.md', 'written by the agent while paused');
      // None of the removal reached the agent: not even a first part of it.
      for (let i = 0; i < 25; i += 1) expect(await w.readRemote(`old/${i}.txt`)).toBe(`old ${i}`);
      // Said when it is new, not again on every cycle while it lasts.
      const said = watcher.output().match(/^Paused: .*$/gm) ?? [];
      expect(said.length).toBeGreaterThan(0);
      expect(new Set(said).size).toBe(said.length);
    } finally {
      watcher.child.kill('SIGINT');
    }
    expect((await watcher.finished).code).toBe(0);
    expect(await w.readRemote('old/24.txt')).toBe('old 24');

    const confirmed = await w.syncOnce('--confirm-deletes');
    expect(confirmed.code, confirmed.out + confirmed.err).toBe(0);
    expect(await w.readRemote('old/0.txt')).toBeUndefined();
    expect(await w.readRemote('kept.md')).toBe('v2, saved while paused');
  }, 90_000);
});
