import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeIndex, mergeIndexInSteps } from '../../../src/core/memory/index-merge';
import { openMemoryDatabase, type MemoryDatabase } from '../../../src/core/memory/memory-database';
import { TranscriptStore } from '../../../src/core/memory/transcript-store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'index-merge-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const dataRows = (db: MemoryDatabase) =>
  (db.prepare('SELECT count(*) AS n FROM parts_fts_data').get() as { n: number }).n;
const setting = (db: MemoryDatabase, key: string) =>
  (db.prepare('SELECT v FROM parts_fts_config WHERE k = ?').get(key) as { v: number } | undefined)?.v;

/** `count` index entries, each written in a transaction of its own: a segment each. */
function writeOneByOne(db: MemoryDatabase, count: number): void {
  const insert = db.prepare('INSERT INTO parts_fts (rowid, content) VALUES (?, ?)');
  for (let i = 1; i <= count; i++) insert.run(i, `garden invoice word${i} deploy`);
}

describe('search index merged in steps', () => {
  it('turns merging inside writes off, and merges the segments of many writes in bounded steps', async () => {
    const db = openMemoryDatabase(join(dir, 'm.db'));
    mergeIndexInSteps(db);
    expect(setting(db, 'automerge')).toBe(0);
    writeOneByOne(db, 120);
    const unmerged = dataRows(db);

    await mergeIndex(db, Infinity);
    expect(dataRows(db)).toBeLessThan(unmerged / 4);
    // Nothing left to merge: a further step changes nothing.
    const merged = dataRows(db);
    await mergeIndex(db, Infinity);
    expect(dataRows(db)).toBe(merged);
    db.close();
  });

  it('a store merges what its writes added once indexed, and search finds every message', async () => {
    const file = join(dir, 't.db');
    const store = TranscriptStore.open(file);
    for (let c = 0; c < 30; c++) {
      await store.saveHistoryInSlices(
        'agent-1',
        `conv-${c}`,
        [
          { role: 'user', content: `recipe number${c} garden`, at: c },
          { role: 'assistant', content: `server backup${c}`, at: c + 1 },
        ],
        0,
      );
    }
    await store.indexed();
    expect(store.search({ text: 'garden', limit: 100 })).toHaveLength(30);
    expect(store.search({ text: 'backup17' }).map((hit) => hit.conversationId)).toEqual(['conv-17']);
    store.close();

    // Nothing was left for a merge step to do.
    const db = openMemoryDatabase(file);
    const rows = dataRows(db);
    await mergeIndex(db, Infinity);
    expect(dataRows(db)).toBe(rows);
    expect(setting(db, 'automerge')).toBe(0);
    db.close();
  });
});
