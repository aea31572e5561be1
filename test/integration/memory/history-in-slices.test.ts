import Database from 'libsql';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { historySlices } from '../../../src/core/memory/history-writer';
import { TranscriptStore } from '../../../src/core/memory/transcript-store';

/** Real SQLite files in a temporary folder; nothing is mocked. */
let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'memory-slices-'));
  file = join(dir, 'transcripts.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const T = Date.parse('2026-11-20T10:00:00Z');
const history = (count: number, word = 'mensaje') =>
  Array.from({ length: count }, (_, i) => ({
    role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
    content: `${word} number ${i}`,
    at: T + i,
  }));

/** Row ids by position, read straight from the file: a rewritten message gets a new id. */
function idsByPosition(conversationId: string): Map<number, number> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare('SELECT id, position FROM messages WHERE conversation_id = ?')
      .all(conversationId) as { id: number; position: number }[];
    return new Map(rows.map((r) => [r.position, r.id]));
  } finally {
    db.close();
  }
}

describe('historySlices', () => {
  it('cuts by text and by count, and gives a message longer than the limit a slice of its own', () => {
    const sized = (...lengths: number[]) => lengths.map((n) => ({ content: 'x'.repeat(n) }));
    expect(historySlices(sized(10, 10, 10, 10), 25, 100)).toEqual([
      [0, 2],
      [2, 4],
    ]);
    expect(historySlices(sized(1, 1, 1, 1, 1), 100, 2)).toEqual([
      [0, 2],
      [2, 4],
      [4, 5],
    ]);
    expect(historySlices(sized(5, 500, 5), 100, 100)).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    expect(historySlices([], 100, 100)).toEqual([]);
  });
});

describe('saveHistoryInSlices', () => {
  it('stores a long history the event loop keeps running through, searchable and marked whole', async () => {
    const store = TranscriptStore.open(file);
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 0);
    await store.saveHistoryInSlices('agent-a', 'c1', history(3000), 0, 'v1');
    clearInterval(ticker);
    // 3,000 short messages are 15 slices of 200: the loop ran between them.
    expect(ticks).toBeGreaterThan(5);
    await store.indexed();
    expect(store.readHistory('c1').messages).toHaveLength(3000);
    expect(store.hasFullHistory('c1', 'v1')).toBe(true);
    expect(store.search({ text: 'mensaje 2999' }).some((hit) => hit.position === 2999)).toBe(true);
    store.close();
  });

  it('leaves unchanged messages as stored, replaces changed ones and drops what the server no longer has', async () => {
    const store = TranscriptStore.open(file);
    await store.saveHistoryInSlices('agent-a', 'c1', history(500), 0, 'v1');
    const before = idsByPosition('c1');
    const next = history(400);
    next[10] = { ...next[10]!, content: 'edited on the server' };
    await store.saveHistoryInSlices('agent-a', 'c1', next, 0, 'v2');
    const after = idsByPosition('c1');
    expect(after.size).toBe(400);
    expect(after.get(0)).toBe(before.get(0));
    expect(after.get(399)).toBe(before.get(399));
    expect(after.get(10)).not.toBe(before.get(10));
    expect(store.readHistory('c1').messages[10]!.content).toBe('edited on the server');
    await store.indexed();
    expect(store.search({ text: 'edited server' }).map((hit) => hit.position)).toEqual([10]);
    expect(store.search({ text: 'mensaje 450' })).toEqual([]);
    store.close();
  });

  it('stopped between slices, keeps what it wrote and does not count the history as stored', async () => {
    const store = TranscriptStore.open(file);
    const stop = new AbortController();
    const writing = store.saveHistoryInSlices('agent-a', 'c1', history(1000), 0, 'v1', stop.signal);
    stop.abort();
    await writing;
    expect(store.hasFullHistory('c1', 'v1')).toBe(false);
    expect(store.readHistory('c1').messages.length).toBeLessThan(1000);
    store.close();
  });
});
