import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SetAsideStore } from '../../../src/core/memory/memory-database';
import { TranscriptStore } from '../../../src/core/memory/transcript-store';

// A damaged transcripts.db (issue 38, item 4) fails its check at open: it is moved aside under a dated name
// (with its -wal and -shm), never deleted or written, and a new store starts, in which the conversations are
// written again (the host's indexer downloads what is missing). Real SQLite files; nothing is mocked.
let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'memory-damaged-'));
  file = join(dir, 'memory', 'transcripts.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A store with one conversation, closed with everything in the file itself. */
async function storeWithOneConversation(): Promise<void> {
  const store = TranscriptStore.open(file);
  store.saveConversation('agent-a', 'c1', { title: 'Kept' });
  store.saveHistory('agent-a', 'c1', [{ role: 'user', content: 'hello there', at: 1 }], 0);
  await store.close();
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const pageSize = () => readFileSync(file).readUInt16BE(16);

const damages: [string, () => void, RegExp][] = [
  ['cut short', () => truncateSync(file, pageSize() + 10), /^the file is cut short/],
  ['random bytes', () => writeSync(openSync(file, 'w'), randomBytes(40_000)), /^the header is not SQLite's/],
  [
    'a wrong header',
    () => writeSync(openSync(file, 'r+'), Buffer.from('SQLite format 9'), 0, 15, 0),
    /^the header is not SQLite's/,
  ],
];

describe('a damaged chat memory', () => {
  for (const [name, damage, words] of damages)
    it(`(${name}) is moved aside with a dated name, untouched, and a new store starts`, async () => {
      await storeWithOneConversation();
      damage();
      const before = sha(file);
      const seen: SetAsideStore[] = [];
      const store = TranscriptStore.open(file, { onSetAside: (aside) => seen.push(aside) });
      expect(seen).toHaveLength(1);
      expect(seen[0]!.problem).toMatch(words);
      expect(seen[0]!.movedTo).toMatch(/transcripts\.damaged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.db$/);
      expect(sha(seen[0]!.movedTo)).toBe(before);
      // The new store is empty and works: the conversation is written again as a download would.
      expect(store.lists.counts()).toMatchObject({ conversations: 0, messages: 0 });
      store.saveConversation('agent-a', 'c1', { title: 'Kept' });
      store.saveHistory('agent-a', 'c1', [{ role: 'user', content: 'hello there', at: 1 }], 0);
      expect(store.readHistory('c1').messages.map((m) => m.content)).toEqual(['hello there']);
      await store.close();
      // Said once: the next open finds a sound store.
      const again = TranscriptStore.open(file, { onSetAside: (aside) => seen.push(aside) });
      expect(seen).toHaveLength(1);
      await again.close();
      // One store set aside (with whatever -wal and -shm it had beside it, renamed alike).
      const aside = readdirSync(join(dir, 'memory')).filter((n) => n.includes('damaged'));
      expect(aside.filter((n) => n.endsWith('.db'))).toHaveLength(1);
      expect(aside.every((n) => /\.db(-wal|-shm)?$/.test(n))).toBe(true);
    });

  it('a sound store is opened as it is, and a missing one is made', async () => {
    const seen: SetAsideStore[] = [];
    expect(existsSync(file)).toBe(false);
    await storeWithOneConversation();
    const store = TranscriptStore.open(file, { onSetAside: (aside) => seen.push(aside) });
    expect(seen).toEqual([]);
    expect(store.readHistory('c1').messages).toHaveLength(1);
    await store.close();
  });
});
