import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TranscriptStore } from '../../../src/core/memory/transcript-store';
import { TurnRecorder } from '../../../src/core/memory/turn-recorder';
import { recordedReply } from '../../../src/core/memory/turn-record';

// A long reply's turn is written by the store's real writer thread (a worker with its own SQLite connection)
// on real files; nothing is mocked. What the host reads of it is read back through the store's own methods.

let dir: string;
let store: TranscriptStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'long-reply-'));
  store = TranscriptStore.open(join(dir, 'transcripts.db'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** 2,000 chunks of 100 characters: a 200 KB reply, past the size the writer thread takes. */
const pieces = Array.from({ length: 2_000 }, (_, i) => `piece ${i} `.padEnd(100, '.'));
const longText = pieces.join('');

function streamLong(recorder: TurnRecorder, conversationId: string, turnId: string, ending = true): number {
  let n = 0;
  const send = (event: string, data: unknown) =>
    recorder.observe('agent-a', conversationId, { event, data, id: `${turnId}.${++n}` });
  send('started', { turnId });
  send('thought', { text: 'A long one.' });
  send('tool', { id: 't1', title: 'Write notes.md', kind: 'edit', status: 'completed' });
  for (const text of pieces) send('chunk', { text, turnId });
  if (ending) send('done', { turnId, state: 'done' });
  return n;
}

async function written(conversationId: string): Promise<void> {
  for (let underWay = store.writesUnderWay(conversationId); underWay;) {
    await underWay;
    underWay = store.writesUnderWay(conversationId);
  }
}

describe('a long reply is written by the writer thread', () => {
  it('is under way once flushed, then stored whole: its text in its message, its tool and thought beside it', async () => {
    const recorder = new TurnRecorder(store, { flushMs: 60_000 });
    recorder.noteSent('agent-a', 'c1', { turnId: 'u1', content: 'write me a long one' });
    streamLong(recorder, 'c1', 'u1');
    recorder.flush();
    expect(store.writesUnderWay('c1')).toBeDefined();

    await written('c1');
    const [turn] = store.storedTurns('c1');
    expect(turn?.userText).toBe('write me a long one');
    expect(turn?.replyText).toBe(longText);
    expect(turn?.detail.state).toBe('done');
    expect(turn?.detail.events.map((e) => e.event)).toEqual(['thought', 'tool', 'chunk']);
    expect(store.readHistory('c1').messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    await store.indexed();
    expect(store.search({ text: 'piece 1999' }).some((hit) => hit.conversationId === 'c1')).toBe(true);
  });

  it('an event that comes while the thread writes the turn is kept, and written after it', async () => {
    const recorder = new TurnRecorder(store, { flushMs: 60_000 });
    const count = streamLong(recorder, 'c1', 'u1');
    recorder.flush();
    recorder.observe('agent-a', 'c1', {
      event: 'usage',
      data: { input: 1, output: 2, turnId: 'u1' },
      id: `u1.${count + 1}`,
    });
    recorder.flush(); // waits for the thread's first write, then writes the turn again
    await written('c1');
    await new Promise((resolve) => setTimeout(resolve, 0));
    await written('c1');
    const [turn] = store.storedTurns('c1');
    expect(turn?.detail.usage).toMatchObject({ input: 1, output: 2 });
    expect(recordedReply(turn!.detail.events)).toBe(longText);
  });

  it('a write of a turn never replaces one that holds more of it (the thread’s landing late)', () => {
    const recorder = new TurnRecorder(store, { flushMs: 60_000 });
    recorder.observe('agent-a', 'c1', { event: 'started', data: { turnId: 'u1' }, id: 'u1.1' });
    recorder.observe('agent-a', 'c1', { event: 'chunk', data: { text: 'one', turnId: 'u1' }, id: 'u1.2' });
    recorder.observe('agent-a', 'c1', { event: 'chunk', data: { text: ' two', turnId: 'u1' }, id: 'u1.3' });
    recorder.close();
    const newer = store.loadTurn('c1', 'u1')!;
    expect(newer.lastEvent).toBe(3);

    const older = { ...newer, events: [{ event: 'chunk', data: { text: 'one' } }], lastEvent: 2 };
    store.writeTurns([{ agentId: 'agent-a', conversationId: 'c1', record: older }]);
    expect(recordedReply(store.loadTurn('c1', 'u1')!.events)).toBe('one two');
  });

  it('closing writes a long turn on the host at once, so nothing waits on the thread', async () => {
    const recorder = new TurnRecorder(store, { flushMs: 60_000 });
    streamLong(recorder, 'c1', 'u1');
    recorder.close();
    expect(store.writesUnderWay('c1')).toBeUndefined();
    expect(store.storedTurns('c1')[0]?.replyText).toBe(longText);
  });

  it('closed while the thread has yet to write it (behind a history), the turn is written all the same', async () => {
    const file = join(dir, 'transcripts.db');
    const recorder = new TurnRecorder(store, { flushMs: 60_000 });
    const history = Array.from({ length: 20_000 }, (_, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `message ${i}`,
      at: i,
    }));
    void store.saveOpenedHistory('agent-a', 'c1', history, 0).catch(() => undefined);
    streamLong(recorder, 'c1', 'u1');
    recorder.flush(); // waits behind the history
    expect(store.writesUnderWay('c1')).toBeDefined();
    recorder.close();
    await store.close();

    store = TranscriptStore.open(file);
    const turn = store.storedTurns('c1').find((t) => t.detail.turnId === 'u1');
    expect(turn?.replyText).toBe(longText);
    expect(turn?.detail.state).toBe('done');
  });

  it('closed right after it was handed to the thread, the turn is written all the same', async () => {
    const file = join(dir, 'transcripts.db');
    const recorder = new TurnRecorder(store, { flushMs: 60_000 });
    streamLong(recorder, 'c1', 'u1');
    recorder.flush(); // handed over: posted to the thread on the next microtask, after the store's close
    recorder.close();
    await store.close();

    store = TranscriptStore.open(file);
    expect(store.storedTurns('c1')[0]?.replyText).toBe(longText);
    expect(store.storedTurns('c1')[0]?.detail.state).toBe('done');
  });

  it('a running long turn is written too, and its end replaces it', async () => {
    const recorder = new TurnRecorder(store, { flushMs: 60_000 });
    const count = streamLong(recorder, 'c1', 'u1', false);
    recorder.flush();
    await written('c1');
    expect(store.storedTurns('c1')[0]?.detail.state).toBeUndefined();
    expect(store.storedTurns('c1')[0]?.replyText).toBe(longText);
    recorder.observe('agent-a', 'c1', {
      event: 'done',
      data: { turnId: 'u1', state: 'stopped' },
      id: `u1.${count + 1}`,
    });
    recorder.flush();
    await written('c1');
    expect(store.storedTurns('c1')[0]?.detail.state).toBe('stopped');
  });
});
