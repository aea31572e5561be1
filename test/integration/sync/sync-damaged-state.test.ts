/**
 * Issue 38, item 4: a folder's sync state file damaged between two runs of `agentdesk sync` (the real CLI
 * process, the real local service, real files), in each of three ways. The next run sets it aside under a
 * dated name, byte for byte, says so once, and rebuilds the state by a full comparison as a first sync does:
 * nothing is deleted on either side (a file deleted on one side since comes back), a file equal on both
 * sides is recorded with no conflict, and one that differs keeps both versions (a conflict copy). The run
 * after that finds the folder in step and says nothing more. The version history, opened alone by
 * `agentdesk sync history`, meets the same check.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, openSync, readdirSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from './cli-harness';

const w = useCliWorld();

const stateDir = () => join(w.dataDir, 'sync');
/** The folder's state file (the one database in the data folder's sync/ that is not set aside). */
function stateFile(): string {
  const names = readdirSync(stateDir()).filter((n) => n.endsWith('.db') && !n.includes('.damaged-'));
  expect(names).toHaveLength(1);
  return join(stateDir(), names[0]!);
}
const setAside = () => readdirSync(stateDir()).filter((n) => /\.damaged-[\dT-]+Z\.db$/.test(n));

const damages: [string, (file: string) => void, RegExp][] = [
  [
    'cut short',
    (file) => truncateSync(file, readFileSync(file).readUInt16BE(16) + 10),
    /the file is cut short/,
  ],
  [
    'random bytes',
    (file) => writeSync(openSync(file, 'w'), randomBytes(24_000)),
    /the header is not SQLite's/,
  ],
  [
    'a wrong header',
    (file) => writeSync(openSync(file, 'r+'), Buffer.from('SQLite format 9'), 0, 15, 0),
    /the header is not SQLite's/,
  ],
];

const readLocal = (path: string) => readFile(join(w.folder, 'work', path), 'utf8').catch(() => undefined);
const localNames = async () =>
  (await readdir(join(w.folder, 'work'))).filter((n) => !n.startsWith('.')).sort();
async function remoteNames(): Promise<string[]> {
  const listing = await w.api.listWorkspace(w.agentId, '');
  if (!listing.ok) throw new Error(listing.error.message);
  return listing.value.files.map((f) => f.path).sort();
}
/** What the OS trash (XDG, in the test's home) holds: a local delete would land there. */
const trashed = () => {
  const files = join(w.home, '.local', 'share', 'Trash', 'files');
  return existsSync(files) ? readdirSync(files) : [];
};

describe('a damaged sync state file', () => {
  for (const [name, damage, words] of damages)
    it(`(${name}) is set aside and rebuilt by a full comparison: nothing deleted, nothing lost`, async () => {
      await w.writeLocal('work/same.txt', 'the same on both sides');
      await w.writeLocal('work/mine.txt', 'mine v1');
      await w.writeLocal('work/gone-here.txt', 'deleted by the person later');
      await w.writeRemote('theirs.txt', 'theirs v1');
      await w.writeRemote('gone-there.txt', 'deleted by the agent later');
      const first = await w.syncOnce();
      expect(first.code, first.out + first.err).toBe(0);
      const all = ['gone-here.txt', 'gone-there.txt', 'mine.txt', 'same.txt', 'theirs.txt'];
      expect(await remoteNames()).toEqual(all);
      expect(await localNames()).toEqual(all);

      // Between the runs: each side deletes one file and changes another; then the state is damaged.
      await rm(join(w.folder, 'work', 'gone-here.txt'));
      await w.writeLocal('work/mine.txt', 'mine v2');
      expect((await w.api.deleteWorkspaceFile(w.agentId, 'gone-there.txt')).ok).toBe(true);
      await w.writeRemote('theirs.txt', 'theirs v2');
      const file = stateFile();
      damage(file);
      const damaged = readFileSync(file);

      if (name === 'a wrong header') {
        // The version history opened alone (no engine) meets the same check and works on a new state.
        const history = await w.startCli(['history', w.folder]).finished;
        expect(history.code, history.out + history.err).toBe(0);
        expect(history.out).toContain('No kept versions yet.');
        // It says why the versions kept before are not listed, and leaves the telling to the sync.
        expect(history.out).toContain("The sync's record of this folder was damaged");
        expect(history.out).toContain('Versions kept before that are no longer listed here');
      }

      const rebuilt = await w.syncOnce();
      const said = rebuilt.out + rebuilt.err;
      // Told once, in words: what was wrong and where the file went.
      expect(said.match(/The sync's record of this folder was damaged/g), said).toHaveLength(1);
      expect(said).toMatch(words);
      expect(said).toContain('nothing is deleted on either side');
      expect(setAside()).toHaveLength(1);
      expect(said).toContain(join(stateDir(), setAside()[0]!));
      expect(readFileSync(join(stateDir(), setAside()[0]!)).equals(damaged)).toBe(true);

      // Nothing deleted: each side's delete came back from the other side.
      expect(await remoteNames()).toEqual(all);
      expect(trashed()).toEqual([]);
      expect(await readLocal('gone-here.txt')).toBe('deleted by the person later');
      expect(await w.readRemote('gone-there.txt')).toBe('deleted by the agent later');
      expect(await readLocal('gone-there.txt')).toBe('deleted by the agent later');
      expect(await w.readRemote('gone-here.txt')).toBe('deleted by the person later');
      // The files that differ are conflicts, each version kept (the person's at its path, the agent's
      // beside it); the equal file is no conflict.
      expect(rebuilt.code, said).toBe(3);
      const conflicts = said.match(/^Conflict: \S+/gm) ?? [];
      expect(conflicts.sort()).toEqual(['Conflict: work/mine.txt', 'Conflict: work/theirs.txt']);
      expect(await readLocal('mine.txt')).toBe('mine v2');
      expect(await w.readRemote('mine.txt')).toBe('mine v1');
      expect(await readLocal('theirs.txt')).toBe('theirs v1');
      expect(await w.readRemote('theirs.txt')).toBe('theirs v2');
      const copies = (await localNames()).filter((n) => n.includes('.conflict-remote-'));
      const copyText = await Promise.all(copies.map((n) => readLocal(n)));
      expect(copyText.sort()).toEqual(['mine v1', 'theirs v2']);
      expect(await readLocal('same.txt')).toBe('the same on both sides');

      // In step: the next run has nothing to carry and says nothing of the damage again.
      const after = await w.syncOnce();
      expect(after.code, after.out + after.err).toBe(3);
      expect(after.out + after.err).not.toMatch(/damaged|Syncing \d+ change/);
      expect(setAside()).toHaveLength(1);
    }, 60_000);
});
