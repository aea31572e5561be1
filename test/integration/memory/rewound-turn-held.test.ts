import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TranscriptStore } from '../../../src/core/memory/transcript-store';
import { TurnRecorder } from '../../../src/core/memory/turn-recorder';

// Retry in place (a rewind) while the recorder still holds the rewound turn: on a busy machine the writer
// thread is still writing the opened history, so the turn's end waits for it, and the rewind forgets the
// stored turns first. The real store, writer thread and recorder on real files; nothing is mocked.

let dir: string;
let store: TranscriptStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rewound-turn-'));
  store = TranscriptStore.open(join(dir, 'transcripts.db'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const asked = 'write silent.txt\n```\nnever written\n```';

/** A turn stopped while its permission was asked, as the local service streams it (ids `<turnId>.<n>`). */
function stoppedAtPermission(recorder: TurnRecorder, turnId: string, upTo = Infinity): void {
  const events: [string, Record<string, unknown>][] = [
    ['started', { turnId }],
    ['tool', { id: `call-${turnId}`, title: 'Write silent.txt', kind: 'edit', status: 'pending', turnId }],
    ['permission', { id: `p-${turnId}`, toolCallId: `call-${turnId}`, turnId }],
    ['permission-resolved', { id: `p-${turnId}`, turnId }],
    ['tool', { id: `call-${turnId}`, status: 'failed', detail: 'Cancelled.', turnId }],
    ['done', { turnId, state: 'stopped' }],
  ];
  events.slice(0, upTo).forEach(([event, data], i) => {
    recorder.observe('agent-a', 'c1', { event, data, id: `${turnId}.${i + 1}` });
  });
}

async function threadDone(): Promise<void> {
  for (let underWay = store.writesUnderWay('c1'); underWay; underWay = store.writesUnderWay('c1'))
    await underWay;
}

/** The host's rewind (host-memory.ts noteRewound): the stored turns and those the recorder holds. */
function rewind(recorder: TurnRecorder): void {
  recorder.forgetFrom('c1', store.forgetTurnsFrom('c1', 0, Date.now() - 60_000));
}

it('a turn the recorder held when Retry rewound it is not written after, and the retried turn takes its question', async () => {
  const recorder = new TurnRecorder(store, { flushMs: 60_000 });
  recorder.noteSent('agent-a', 'c1', { turnId: 'first', content: asked });
  // The opened history is still being written by the thread when the stopped turn ends.
  void store.saveOpenedHistory('agent-a', 'c1', [], 0);
  stoppedAtPermission(recorder, 'first');
  recorder.flush();
  expect(store.storedTurns('c1')).toEqual([]); // it waits for the thread

  rewind(recorder);
  await threadDone();
  recorder.flush();
  recorder.noteSent('agent-a', 'c1', { turnId: 'second', content: asked });
  stoppedAtPermission(recorder, 'second');
  recorder.flush();
  await threadDone();

  expect(store.storedTurns('c1').map((t) => t.detail.turnId)).toEqual(['second']);
  const history = store.merged('c1', {
    messages: [{ role: 'user', content: asked, at: Date.now() }],
    skipped: 0,
  });
  const detail = history.messages[0]!.detail!;
  expect(detail.turnId).toBe('second');
  expect(detail.state).toBe('stopped');
  expect(detail.events.find((e) => e.event === 'tool')?.data['title']).toBe('Write silent.txt');
});

it('the end of a rewound turn that comes after the rewind does not bring it back', async () => {
  const recorder = new TurnRecorder(store, { flushMs: 60_000 });
  recorder.noteSent('agent-a', 'c1', { turnId: 'first', content: asked });
  stoppedAtPermission(recorder, 'first', 3); // the person pressed Stop: its end is still on its way
  recorder.flush();
  expect(store.storedTurns('c1').map((t) => t.detail.turnId)).toEqual(['first']);

  rewind(recorder);
  stoppedAtPermission(recorder, 'first'); // its end arrives (the ids before are replayed ones)
  recorder.flush();
  await threadDone();
  expect(store.storedTurns('c1')).toEqual([]);
});

it('a long reply the writer thread was writing when the rewind came is not left stored after it', async () => {
  const recorder = new TurnRecorder(store, { flushMs: 60_000 });
  recorder.noteSent('agent-a', 'c1', { turnId: 'long', content: 'write me a long one' });
  let n = 0;
  const send = (event: string, data: Record<string, unknown>) =>
    recorder.observe('agent-a', 'c1', { event, data: { ...data, turnId: 'long' }, id: `long.${++n}` });
  send('started', {});
  // 200 KB: past the size the writer thread takes (turn-recorder.ts THREAD_SIZE).
  for (let i = 0; i < 2_000; i++) send('chunk', { text: `piece ${i} `.padEnd(100, '.') });
  send('done', { state: 'done' });
  recorder.flush(); // handed to the thread
  expect(store.writesUnderWay('c1')).toBeDefined();

  rewind(recorder);
  await threadDone();
  expect(store.storedTurns('c1')).toEqual([]);
});

it('a rewound turn already written and let go does not come back as its replayed tail', async () => {
  const recorder = new TurnRecorder(store, { flushMs: 60_000 });
  recorder.noteSent('agent-a', 'c1', { turnId: 'first', content: asked });
  stoppedAtPermission(recorder, 'first');
  recorder.flush(); // written with its end: the recorder lets it go
  expect(store.storedTurns('c1').map((t) => t.detail.turnId)).toEqual(['first']);

  rewind(recorder);
  // A stream resuming from an id inside it is given the rest of it again (the log keeps the turn before).
  const tail: [string, Record<string, unknown>][] = [
    ['tool', { id: 'call-first', status: 'failed', detail: 'Cancelled.', turnId: 'first' }],
    ['done', { turnId: 'first', state: 'stopped' }],
  ];
  tail.forEach(([event, data], i) =>
    recorder.observe('agent-a', 'c1', { event, data, id: `first.${i + 5}` }),
  );
  recorder.flush();
  await threadDone();
  expect(store.storedTurns('c1')).toEqual([]);
});
