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
    recorder.observe('a1', 'c1', { event: 'done', data: { turnId: 'u1', estado: 'done' }, id: 'u1.999999' });
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

  it('cuts parts at a space, never inside a word or a surrogate pair', () => {
    const text = 'word '.repeat(PART_CHARS);
    const end = partEnd(text, 0);
    expect(end).toBeLessThanOrEqual(PART_CHARS);
    expect(text[end - 1]).toBe(' ');
    const emoji = '😀'.repeat(PART_CHARS);
    expect(partEnd(emoji, 0) % 2).toBe(0);
    expect(partEnd('short', 0)).toBe(5);
  });
});
