/**
 * Issue 26, item 1: a conflict the person settles by hand, as in Dropbox or Syncthing, by deleting
 * the agent's conflict copy. The real `agentdesk sync` process, the real service, real disk: the
 * next run keeps their version (said in its output), the agent's version stays in the history,
 * and `sync resolve` never says the agent changed a file it did not change.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from './cli-harness';

const w = useCliWorld();
const copiesIn = async (dir: string) =>
  (await readdir(join(w.folder, dir))).filter((n) => n.includes('.conflict-remote-'));

/** A conflict on work/c/both.txt, then the person deletes the agent's copy and edits their file. */
async function conflictWithCopyDeleted(): Promise<string> {
  await w.writeRemote('c/both.txt', 'the agent wrote this');
  await w.writeLocal('work/c/both.txt', 'I wrote this instead');
  const first = await w.syncOnce();
  expect(first.code).toBe(3);
  const [copy] = await copiesIn('work/c');
  expect(copy).toBeDefined();
  await rm(join(w.folder, 'work/c', copy!));
  await writeFile(join(w.folder, 'work/c/both.txt'), 'mine, edited again');
  return `work/c/${copy}`;
}

describe('deleting the conflict copy keeps mine', () => {
  it('the next `sync --once` keeps mine, says so, exits 0, and keeps the agent’s version in the history', async () => {
    const copy = await conflictWithCopyDeleted();
    const second = await w.syncOnce();
    expect(second.err).toBe('');
    expect(second.out).toContain(
      `Resolved work/c/both.txt: kept mine, because the agent's copy (${copy}) was deleted. The agent's version is in the version history.`,
    );
    expect(second.out).not.toMatch(/^Conflict:/m);
    expect(second.code).toBe(0);
    expect(await copiesIn('work/c')).toEqual([]);
    expect(await w.readRemote('c/both.txt')).toBe('mine, edited again');
    expect(await readFile(join(w.folder, 'work/c/both.txt'), 'utf8')).toBe('mine, edited again');
    expect((await w.startCli(['conflicts', w.folder]).finished).out).toMatch(/No open conflicts/);
    // The deleted copy's contents: kept, and restorable.
    const history = await w.startCli(['history', w.folder, 'work/c/both.txt']).finished;
    expect(history.out).toMatch(/#\d+ +.+ +the agent's +20 B/);
    const third = await w.syncOnce();
    expect(third.code).toBe(0);
    expect(third.out).not.toContain('Resolved');
  }, 90_000);

  it('`sync resolve --keep mine` with the copy deleted settles it, without claiming the agent changed it', async () => {
    await conflictWithCopyDeleted();
    const resolved = await w.startCli([
      'resolve',
      w.folder,
      'work/c/both.txt',
      '--keep',
      'mine',
      '--server',
      w.service.url,
    ]).finished;
    expect(resolved.err).toBe('');
    expect(resolved.out).not.toMatch(/changed .* again/);
    expect(resolved.out).toMatch(/Resolved work\/c\/both\.txt: kept mine/);
    expect(resolved.code).toBe(0);
    expect(await w.readRemote('c/both.txt')).toBe('mine, edited again');
    expect(await copiesIn('work/c')).toEqual([]);
  }, 90_000);

  it('the agent did change it again after the copy was deleted: a new copy, and the conflict stays open', async () => {
    await conflictWithCopyDeleted();
    await w.writeRemote('c/both.txt', 'the agent wrote a third thing');
    const second = await w.syncOnce();
    expect(second.code).toBe(3);
    const [fresh] = await copiesIn('work/c');
    expect(second.out).toContain(
      `The agent changed work/c/both.txt again; its newest version is now in work/c/${fresh}.`,
    );
    expect(await readFile(join(w.folder, 'work/c', fresh!), 'utf8')).toBe('the agent wrote a third thing');
    expect(await w.readRemote('c/both.txt')).toBe('the agent wrote a third thing');
    expect(await readFile(join(w.folder, 'work/c/both.txt'), 'utf8')).toBe('mine, edited again');
  }, 90_000);
});
