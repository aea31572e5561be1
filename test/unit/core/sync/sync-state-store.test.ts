/**
 * The state store's gathered base writes, on a real SQLite file: a path's new base is seen at once
 * by this store, reaches the file in one transaction (before a full read, after a short delay, at
 * close), and a crash before that leaves the path at its old base.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SyncStateStore } from '../../../../src/core/sync/state/sync-state-store';

let dir: string;
let file: string;
const open: SyncStateStore[] = [];
const store = () => {
  const made = new SyncStateStore(file);
  open.push(made);
  return made;
};
const entry = (text: string) => ({ size: text.length, sha256: `sha-of-${text}` });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdesk-state-'));
  file = join(dir, 'state.db');
});
afterEach(async () => {
  for (const s of open.splice(0)) {
    try {
      s.close();
    } catch {
      // closed by the test
    }
  }
  await rm(dir, { recursive: true, force: true });
});

describe('SyncStateStore base writes', () => {
  it('are seen at once by the same store, and by another connection only once written', async () => {
    const writer = store();
    const reader = store();
    expect(writer.baseEntries().size).toBe(0); // a first sync: no lookups per path
    writer.commitBase('work/a.txt', 'work/a.txt', entry('a'), 1);
    writer.commitBase('work/b.txt', 'work/b.txt', entry('b'), 2);
    writer.forgetBase('work/b.txt');
    expect(writer.baseEntry('work/a.txt')).toEqual({ path: 'work/a.txt', ...entry('a'), mtimeMs: 1 });
    expect(writer.baseEntry('work/b.txt')).toBeUndefined();
    expect(reader.baseEntry('work/a.txt')).toBeUndefined(); // still gathered
    // Written once the gathering delay (20 ms) has passed.
    await vi.waitFor(() =>
      expect(reader.baseEntry('work/a.txt')).toEqual({ path: 'work/a.txt', ...entry('a'), mtimeMs: 1 }),
    );
    expect([...reader.baseEntries().keys()]).toEqual(['work/a.txt']);
    expect(writer.baseEntry('work/a.txt')?.mtimeMs).toBe(1); // written, and still found here
  });

  it('on a first sync, answer from what this store wrote, with no lookup for any other path', () => {
    const writer = store();
    expect(writer.baseEntries().size).toBe(0);
    writer.commitBase('work/a.txt', 'work/a.txt', entry('a'), 1);
    writer.commitBase('work/b.txt', 'work/b.txt', entry('b'), 2);
    writer.flush();
    writer.forgetBase('work/b.txt');
    writer.flush();
    // Only the owner writes a folder's state; a row slipped in by another connection shows
    // that a path this store never wrote is not looked up.
    const other = store();
    other.commitBase('work/c.txt', 'work/c.txt', entry('c'), 3);
    other.flush();
    expect(writer.baseEntry('work/a.txt')).toEqual({ path: 'work/a.txt', ...entry('a'), mtimeMs: 1 });
    expect(writer.baseEntry('work/b.txt')).toBeUndefined();
    expect(writer.baseEntry('work/c.txt')).toBeUndefined();
    // A full read ends the first sync: every path is looked up again.
    expect(writer.baseEntries().size).toBe(2);
    expect(writer.baseEntry('work/c.txt')?.mtimeMs).toBe(3);
  });

  it('are all written before a full read and at close, in one transaction', () => {
    const writer = store();
    for (let i = 0; i < 600; i += 1) writer.commitBase(`work/f${i}`, `work/f${i}`, entry(`${i}`), i);
    expect(writer.baseEntries().size).toBe(600);
    writer.commitBase('work/last', 'work/last', entry('last'), 1);
    writer.close();
    const after = store();
    expect(after.baseEntry('work/last')).toEqual({ path: 'work/last', ...entry('last'), mtimeMs: 1 });
    expect(after.baseEntries().size).toBe(601);
  });

  it('leave a path at its old base when the process dies before they are written', () => {
    const first = store();
    first.commitBase('work/a.txt', 'work/a.txt', entry('old'), 1);
    first.flush();
    first.commitBase('work/a.txt', 'work/a.txt', entry('new'), 2);
    // A crash: the next process opens the file while this one never wrote its gathered row.
    const next = store();
    expect(next.baseEntry('work/a.txt')).toEqual({ path: 'work/a.txt', ...entry('old'), mtimeMs: 1 });
    expect(first.baseEntry('work/a.txt')?.sha256).toBe('sha-of-new');
  });
});

describe('SyncStateStore base changes since a mark', () => {
  it('names the keys committed or forgotten after the mark, and none before it', () => {
    const s = store();
    s.commitBase('work/old.txt', 'work/old.txt', entry('old'));
    const mark = s.changes.count;
    expect(s.changes.since(mark)).toEqual(new Set());
    s.commitBase('work/new.txt', 'work/new.txt', entry('new'));
    s.forgetBase('work/gone.txt');
    expect(s.changes.since(mark)).toEqual(new Set(['work/new.txt', 'work/gone.txt']));
    // A key changed before the mark and again after it is named.
    s.commitBase('work/old.txt', 'work/old.txt', entry('newer'));
    expect(s.changes.since(mark)?.has('work/old.txt')).toBe(true);
  });

  it('says it cannot tell once the changes since the mark are too many to keep', () => {
    const s = store();
    const mark = s.changes.count;
    for (let n = 0; n < 10_001; n += 1) s.commitBase(`work/${n}.txt`, `work/${n}.txt`, entry(`${n}`));
    expect(s.changes.since(mark)).toBeUndefined();
    // A mark taken after the forgetting still tells.
    const later = s.changes.count;
    s.commitBase('work/x.txt', 'work/x.txt', entry('x'));
    expect(s.changes.since(later)).toEqual(new Set(['work/x.txt']));
  });
});
