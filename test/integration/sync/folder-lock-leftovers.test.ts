import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { lockFolder } from '../../../src/core/sync/state/folder-lock';

// What a process killed while taking a folder's lock leaves beside it (its copy of the lock, written before it
// is linked to the lock's name; or the guard of a takeover) is cleared by the next one once it is old enough
// that no live process can still be making it; a copy a live process is making now is left alone.
const dir = await mkdtemp(join(tmpdir(), 'folder-lock-leftovers-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

it('a killed taker’s copy of the lock and its takeover guard are cleared; a fresh copy is not', async () => {
  const stateFile = join(dir, 'state.db');
  const minuteAgo = new Date(Date.now() - 60_000);
  await writeFile(`${stateFile}.lock.4194311.new`, '{"pid":4194311}');
  await utimes(`${stateFile}.lock.4194311.new`, minuteAgo, minuteAgo);
  await writeFile(`${stateFile}.lock.4194312.new`, '{"pid":4194312}');
  // A stale lock whose takeover was abandoned: the next taker waits for the guard, then clears it.
  await writeFile(
    `${stateFile}.lock`,
    JSON.stringify({ pid: 4194313, host: hostname(), who: 'y', since: 1 }),
  );
  await writeFile(`${stateFile}.lock.takeover`, '4194313');
  await utimes(`${stateFile}.lock.takeover`, minuteAgo, minuteAgo);
  await writeFile(`${stateFile}.lock.9.new.bak`, 'a file of the person’s');

  const lock = lockFolder(stateFile, dir, 'the test');
  expect((await readdir(dir)).sort()).toEqual([
    'state.db.lock',
    'state.db.lock.4194312.new',
    'state.db.lock.9.new.bak',
  ]);
  lock.release();
  expect((await readdir(dir)).sort()).toEqual(['state.db.lock.4194312.new', 'state.db.lock.9.new.bak']);
});
