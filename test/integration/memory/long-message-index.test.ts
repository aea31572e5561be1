import Database from 'libsql';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyMemoryMigrations } from '../../../src/core/memory/memory-database';
import { memoryMigrations } from '../../../src/core/memory/memory-migrations';
import { PART_CHARS, partEnd } from '../../../src/core/memory/message-indexer';
import { TranscriptStore } from '../../../src/core/memory/transcript-store';
import { TurnRecorder } from '../../../src/core/memory/turn-recorder';

/** Real SQLite files in a temporary folder; nothing is mocked. How long the host blocks is measured in bench:ui. */
let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'memory-index-'));
  file = join(dir, 'transcripts.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** ~1 MB of words, with a marker word at the start, the middle and the end. */
function longReply(): string {
  const words = Array.from({ length: 160_000 }, (_, i) => `w${i % 997}`);
  words[0] = 'aardvarkstart';
  words[80_000] = 'bumblebeemiddle';
  words[159_999] = 'zeppelinend';
  return words.join(' ');
}

const found = (store: TranscriptStore, word: string) =>
  store.search({ text: word }).map((h) => [h.conversationId, h.position]);

describe('indexing long messages in parts', () => {
  it('makes a 1 MB streamed reply fully searchable, one hit per message', async () => {
    const store = TranscriptStore.open(file);
    const recorder = new TurnRecorder(store);
    const reply = longReply();
    recorder.observe('a1', 'c1', { event: 'started', data: { turnId: 'u1' }, id: 'u1.1' });
    for (let i = 0; i < reply.length; i += 100) {
      recorder.observe('a1', 'c1', {
        event: 'chunk',
        data: { text: reply.slice(i, i + 100) },
        id: `u1.${i + 2}`,
      });
    }
    recorder.observe('a1', 'c1', { event: 'done', data: { turnId: 'u1', state: 'done' }, id: 'u1.999999' });
    recorder.flush();
    expect(found(store, 'zeppelinend')).toEqual([]);
    await store.indexed();
    for (const word of ['aardvarkstart', 'bumblebeemiddle', 'zeppelinend']) {
      expect(found(store, word)).toEqual([['c1', 0]]);
    }
    // Every part matches "w1": still one hit for the message.
    expect(found(store, 'w1')).toEqual([['c1', 0]]);
    store.close();
  });

  it('finishes indexing at the next start when the app quit mid-way', async () => {
    const first = TranscriptStore.open(file);
    first.saveHistory('a1', 'c1', [{ role: 'assistant', content: longReply(), at: 1 }], 0);
    first.close();
    const again = TranscriptStore.open(file);
    expect(found(again, 'zeppelinend')).toEqual([]);
    await again.indexed();
    expect(found(again, 'zeppelinend')).toEqual([['c1', 0]]);
    again.close();
  });

  it('forgets the parts of a message the server history replaces, also while it is being indexed', async () => {
    const store = TranscriptStore.open(file);
    store.saveHistory('a1', 'c1', [{ role: 'assistant', content: longReply(), at: 1 }], 0);
    store.saveHistory('a1', 'c1', [{ role: 'assistant', content: 'short zeppelinend answer', at: 1 }], 0);
    await store.indexed();
    expect(found(store, 'bumblebeemiddle')).toEqual([]);
    expect(store.search({ text: 'zeppelinend' })).toHaveLength(1);
    store.close();
  });

  it('indexes the long messages of a database written before migration 004', async () => {
    const db = new Database(file);
    applyMemoryMigrations(db, memoryMigrations.slice(0, 3));
    db.prepare("INSERT INTO conversations (id, agent_id) VALUES ('c1', 'a1')").run();
    const insert = db.prepare(
      "INSERT INTO messages (conversation_id, position, role, content, at) VALUES ('c1', ?, 'user', ?, 1)",
    );
    insert.run(0, 'a short pelican question');
    insert.run(1, longReply());
    db.close();
    const store = TranscriptStore.open(file);
    expect(found(store, 'pelican')).toEqual([['c1', 0]]);
    await store.indexed();
    expect(found(store, 'zeppelinend')).toEqual([['c1', 1]]);
    store.close();
  });

  it('cuts parts at a space, never inside a word', () => {
    const text = 'word '.repeat(PART_CHARS / 5);
    const end = partEnd(text.slice(0, PART_CHARS), false);
    expect(end).toBeLessThanOrEqual(PART_CHARS);
    expect(text[end - 1]).toBe(' ');
    expect(partEnd('x'.repeat(PART_CHARS), false)).toBe(PART_CHARS);
    expect(partEnd('short tail', true)).toBe(10);
  });

  it('indexes text beyond the 16-bit range (emoji) at the right places', async () => {
    const store = TranscriptStore.open(file);
    const words = Array.from({ length: 40_000 }, (_, i) => (i % 3 === 0 ? '😀' : `w${i % 991}`));
    words[20_000] = 'ocelotmiddle';
    words[39_999] = 'quetzalend';
    store.saveHistory('a1', 'c1', [{ role: 'assistant', content: words.join(' '), at: 1 }], 0);
    await store.indexed();
    expect(found(store, 'ocelotmiddle')).toEqual([['c1', 0]]);
    const [hit] = store.search({ text: 'quetzalend' });
    expect(hit?.snippet.find((segment) => segment.hit)?.text).toBe('quetzalend');
    store.close();
  });

  it("keeps a message's text once: parts are spans of it, and the turn keeps no second copy", async () => {
    const store = TranscriptStore.open(file);
    const recorder = new TurnRecorder(store);
    const reply = longReply();
    recorder.observe('a1', 'c1', { event: 'started', data: { turnId: 'u1' }, id: 'u1.1' });
    recorder.observe('a1', 'c1', { event: 'chunk', data: { text: reply }, id: 'u1.2' });
    recorder.observe('a1', 'c1', { event: 'done', data: { turnId: 'u1', state: 'done' }, id: 'u1.3' });
    recorder.flush();
    await store.indexed();
    store.close();
    const db = new Database(file);
    const spans = db.prepare('SELECT start, length FROM message_spans ORDER BY start').all() as {
      start: number;
      length: number;
    }[];
    // The spans cover the reply exactly, end to end, and no table holds a copy of a part's text.
    expect(spans.reduce((at, span) => (span.start === at ? at + span.length : -1), 0)).toBe(reply.length);
    const columns = (table: string) =>
      (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
    expect(columns('message_spans')).toEqual(['id', 'message_id', 'start', 'length', 'shard']);
    expect(columns('turns')).not.toContain('reply_text');
    // The turn's record keeps the chunk run's length, not the text.
    const record = db.prepare('SELECT length(record) AS size FROM turns').get() as { size: number };
    expect(record.size).toBeLessThan(1000);
    db.close();
    const again = TranscriptStore.open(file);
    expect(again.storedTurns('c1')[0]?.replyText).toBe(reply);
    expect(again.loadTurn('c1', 'u1')?.events).toEqual([{ event: 'chunk', data: { text: reply } }]);
    again.close();
  });

  it("keeps a streamed reply's text when the server's history replaces its message", () => {
    const store = TranscriptStore.open(file);
    const recorder = new TurnRecorder(store);
    const stream = (turnId: string, question: string, reply: string) => {
      recorder.noteSent('a1', 'c1', { turnId, content: question });
      recorder.observe('a1', 'c1', { event: 'started', data: { turnId }, id: `${turnId}.1` });
      recorder.observe('a1', 'c1', { event: 'thought', data: { text: 'hm' }, id: `${turnId}.2` });
      recorder.observe('a1', 'c1', { event: 'chunk', data: { text: reply }, id: `${turnId}.3` });
      recorder.observe('a1', 'c1', { event: 'done', data: { turnId, state: 'done' }, id: `${turnId}.4` });
      recorder.flush();
    };
    stream('u1', 'first?', 'the same on both sides');
    stream('u2', 'second?', 'streamed words');
    // The server says the same of the first reply and something else of the second.
    store.saveHistory(
      'a1',
      'c1',
      [
        { role: 'user', content: 'first?', at: 1 },
        { role: 'assistant', content: 'the same on both sides', at: 2 },
        { role: 'user', content: 'second?', at: 3 },
        { role: 'assistant', content: 'server words', at: 4 },
      ],
      0,
    );
    const [first, second] = store.merged('c1').messages.filter((m) => m.role === 'assistant');
    expect(first?.detail?.events).toContainEqual({
      event: 'chunk',
      data: { text: 'the same on both sides' },
    });
    expect(first?.detail?.storedText).toBeUndefined();
    expect(second?.content).toBe('server words');
    expect(second?.detail?.storedText).toBe('streamed words');
    // And again after another download, with nothing of the streamed text lost.
    store.saveHistory('a1', 'c1', [{ role: 'user', content: 'first?', at: 1 }], 0);
    expect(store.storedTurns('c1').map((t) => t.replyText)).toEqual([
      'the same on both sides',
      'streamed words',
    ]);
    store.close();
  });

  it('migrates a store written with migration 004 (parts as copies), which stays searchable', async () => {
    const db = new Database(file);
    applyMemoryMigrations(db, memoryMigrations.slice(0, 4));
    db.prepare("INSERT INTO conversations (id, agent_id) VALUES ('c1', 'a1')").run();
    const insert = db.prepare(
      "INSERT INTO messages (conversation_id, position, role, content, at) VALUES ('c1', ?, ?, ?, 1)",
    );
    insert.run(0, 'user', 'a short pelican question');
    insert.run(1, 'assistant', longReply());
    // 004 had indexed the first 16 KB part of the long reply when the app quit.
    db.prepare(
      'INSERT INTO message_parts (message_id, content) SELECT id, substr(content, 1, 16000) FROM messages WHERE position = 1',
    ).run();
    db.prepare('UPDATE messages SET index_from = 16000 WHERE position = 1').run();
    db.prepare(
      `INSERT INTO turns (conversation_id, turn_id, started_at, reply_text, estado, record)
       VALUES ('c1', 't1', 1, 'old copy', 'done', '{"events":[{"event":"chunk","data":{"text":"streamed"}}]}')`,
    ).run();
    db.close();

    const store = TranscriptStore.open(file);
    expect(found(store, 'pelican')).toEqual([['c1', 0]]);
    await store.indexed();
    for (const word of ['aardvarkstart', 'bumblebeemiddle', 'zeppelinend']) {
      expect(found(store, word)).toEqual([['c1', 1]]);
    }
    expect(store.storedTurns('c1')[0]).toMatchObject({ replyText: 'streamed', detail: { state: 'done' } });
    // A replaced message leaves the index with its old text.
    store.saveHistory('a1', 'c1', [{ role: 'user', content: 'only a heron now', at: 1 }], 0);
    expect(found(store, 'pelican')).toEqual([]);
    expect(found(store, 'zeppelinend')).toEqual([]);
    expect(found(store, 'heron')).toEqual([['c1', 0]]);
    store.close();
  });

  it('moves the progress of a store written with migration 005 to the index queue, and finishes it', async () => {
    const db = new Database(file);
    applyMemoryMigrations(db, memoryMigrations.slice(0, 5));
    db.prepare("INSERT INTO conversations (id, agent_id) VALUES ('c1', 'a1')").run();
    db.prepare(
      "INSERT INTO messages (conversation_id, position, role, content, at) VALUES ('c1', 0, 'assistant', ?, 1)",
    ).run(longReply());
    // 005 had indexed the first part when the app quit.
    const first = db.prepare('SELECT id FROM messages WHERE position = 0').get() as { id: number };
    const span = db
      .prepare('INSERT INTO message_spans (message_id, start, length) VALUES (?, 0, 16000)')
      .run(first.id);
    db.prepare(
      'INSERT INTO parts_fts (rowid, content) SELECT ?, substr(content, 1, 16000) FROM messages',
    ).run(span.lastInsertRowid);
    db.prepare('UPDATE messages SET index_from = 16000').run();
    db.close();

    const store = TranscriptStore.open(file);
    expect(found(store, 'aardvarkstart')).toEqual([['c1', 0]]);
    await store.indexed();
    expect(found(store, 'zeppelinend')).toEqual([['c1', 0]]);
    store.close();
    const after = new Database(file);
    const spans = after.prepare('SELECT start, length FROM message_spans ORDER BY start').all() as {
      start: number;
      length: number;
    }[];
    expect(spans[0]).toEqual({ start: 0, length: 16000 });
    expect(spans.reduce((at, s) => (s.start === at ? at + s.length : -1), 0)).toBe(longReply().length);
    expect(after.prepare('SELECT count(*) AS n FROM index_queue').get()).toMatchObject({ n: 0 });
    after.close();
  });
});
