import Database from 'libsql';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyMemoryMigrations } from '../../../src/core/memory/memory-database';
import { memoryMigrations } from '../../../src/core/memory/memory-migrations';
import { TranscriptStore } from '../../../src/core/memory/transcript-store';

/** The search index in shards (index-shards.ts): real SQLite files, small shards so a test fills several. */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'index-shards-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const T = Date.parse('2026-11-20T10:00:00Z');
const words = ['garden', 'invoice', 'deploy', 'recipe', 'canción', 'zulu'];
const history = (c: number, count = 40) =>
  Array.from({ length: count }, (_, i) => ({
    role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
    content: `${words[(c + i) % words.length]} n${c}x${i}q ${words[(c * 3 + i) % words.length]} word${i}`,
    at: T + c * 1000 + i,
  }));
/** About 40,000 characters with a marker word near the end: indexed later, in parts. */
const longReply = () => `${'lorem ipsum dolor '.repeat(2200)}zeppelinend`;

const queries = [
  'garden',
  'inv',
  'deploy recipe',
  'cancion',
  'n3x1q',
  'zulu',
  'word17',
  'zeppelinend',
  'nothing',
];
const hits = (store: TranscriptStore, text: string, limit = 200) =>
  store
    .search({ text, limit })
    .map(
      (h) =>
        `${h.conversationId}:${h.position}:${h.snippet.map((s) => (s.hit ? `[${s.text}]` : s.text)).join('')}`,
    );

async function fill(store: TranscriptStore): Promise<void> {
  for (let c = 0; c < 12; c++) {
    await store.saveHistoryInSlices('agent-1', `conv-${c}`, history(c), 0);
    if (c === 5) {
      store.saveHistory('agent-1', 'long', [{ role: 'assistant', content: longReply(), at: T + 5500 }], 0);
      await store.indexed();
    }
  }
  await store.indexed();
}

function shards(file: string): number[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT n FROM index_shards ORDER BY n').all() as { n: number }[]).map((r) => r.n);
  } finally {
    db.close();
  }
}

/** Index entries for `word` in every shard, read from the index alone (not through the spans). */
function indexed(file: string, word: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return shards(file).reduce((sum, n) => {
      const table = n === 0 ? 'parts_fts' : `parts_fts_${n}`;
      const row = db.prepare(`SELECT count(*) AS c FROM ${table} WHERE ${table} MATCH ?`).get(`"${word}"*`);
      return sum + (row as { c: number }).c;
    }, 0);
  } finally {
    db.close();
  }
}

/** FTS5's own check of every shard's index: throws when one is damaged. */
function checkShards(file: string): void {
  const db = new Database(file);
  try {
    for (const n of shards(file)) {
      const table = n === 0 ? 'parts_fts' : `parts_fts_${n}`;
      db.prepare(`INSERT INTO ${table} (${table}) VALUES ('integrity-check')`).run();
    }
  } finally {
    db.close();
  }
}

describe('the search index in shards', () => {
  it('finds the same as one index, newest first, as messages are replaced and deleted', async () => {
    const one = TranscriptStore.open(join(dir, 'one.db'));
    const shardedFile = join(dir, 'sharded.db');
    const sharded = TranscriptStore.open(shardedFile, { shardChars: 2_000 });
    await fill(one);
    await fill(sharded);
    expect(shards(join(dir, 'one.db'))).toEqual([0]);
    expect(shards(shardedFile).length).toBeGreaterThan(5);
    for (const q of queries) expect(hits(sharded, q), q).toEqual(hits(one, q));
    expect(hits(sharded, 'zeppelinend')).toHaveLength(1);
    expect(hits(sharded, 'garden', 5)).toEqual(hits(one, 'garden', 5));

    // Messages in the oldest shards change (a new server history) or go: the index follows.
    for (const store of [one, sharded]) {
      await store.saveHistoryInSlices(
        'agent-1',
        'conv-0',
        [{ role: 'user', content: 'quetzal replaced the first', at: T }],
        0,
      );
      store.saveHistory('agent-1', 'long', [], 0);
      await store.indexed();
    }
    for (const q of [...queries, 'quetzal', 'n0x1q']) expect(hits(sharded, q), q).toEqual(hits(one, q));
    expect(hits(sharded, 'quetzal')).toHaveLength(1);
    expect(hits(sharded, 'n0x1q')).toEqual([]);
    expect(hits(sharded, 'zeppelinend')).toEqual([]);
    one.close();
    sharded.close();
    // Taken out of the index itself, in whichever shard held them.
    expect(indexed(shardedFile, 'n0x1q')).toBe(0);
    expect(indexed(shardedFile, 'zeppelinend')).toBe(0);
    expect(indexed(shardedFile, 'n5x1q')).toBe(1);
    checkShards(shardedFile);

    // Reopened, it goes on in its newest shard; cleared, it is one empty shard again.
    const again = TranscriptStore.open(shardedFile, { shardChars: 2_000 });
    await again.saveHistoryInSlices('agent-2', 'later', history(99), 0);
    await again.indexed();
    expect(hits(again, 'n99x3q')).toHaveLength(1);
    again.clear();
    expect(shards(shardedFile)).toEqual([0]);
    expect(hits(again, 'garden')).toEqual([]);
    await again.saveHistoryInSlices('agent-2', 'after', history(7), 0);
    await again.indexed();
    expect(hits(again, 'n7x2q')).toHaveLength(1);
    again.close();
    checkShards(shardedFile);
  });

  it('opens a store indexed before shards (migration 011): it searches, and what it held stays in shard 0', async () => {
    const file = join(dir, 'old.db');
    const db = new Database(file);
    applyMemoryMigrations(
      db,
      memoryMigrations.filter((m) => m.id < '011'),
    );
    db.prepare("INSERT INTO conversations (id, agent_id) VALUES ('old', 'agent-1')").run();
    const insert = db.prepare(
      'INSERT INTO messages (conversation_id, position, role, content, at) VALUES (?, ?, ?, ?, ?)',
    );
    history(1, 200).forEach((m, i) => insert.run('old', i, m.role, m.content, m.at));
    db.close();

    // Already past a shard's size: the next write starts shard 1.
    const store = TranscriptStore.open(file, { shardChars: 2_000 });
    await store.indexed();
    expect(hits(store, 'n1x150q')).toHaveLength(1);
    expect(hits(store, 'garden').length).toBeGreaterThan(20);
    await store.saveHistoryInSlices('agent-1', 'new', history(2), 0);
    await store.indexed();
    expect(shards(file).length).toBeGreaterThan(1);
    expect(hits(store, 'n2x5q')).toHaveLength(1);
    // A message indexed before the shards is still taken out of the index when it changes.
    store.saveHistory('agent-1', 'old', [{ role: 'user', content: 'quetzal only', at: T }], 0);
    await store.indexed();
    expect(hits(store, 'n1x150q')).toEqual([]);
    expect(hits(store, 'quetzal')).toHaveLength(1);
    store.close();
    expect(indexed(file, 'n1x150q')).toBe(0);
    checkShards(file);
  });
});
