import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TranscriptStore } from '../../../src/core/memory/transcript-store';
import { TurnRecorder } from '../../../src/core/memory/turn-recorder';

// A history downloaded in the background (or for an opened conversation) while a turn runs: the server's copy
// holds the question only, and the writer thread writes it after the turn's end was recorded. On a busy
// machine that removed the recorded reply, so the conversation read offline had the question alone
// (host-memory.test.ts saw it 2 runs in 3). The real store, writer thread and recorder on real files.

let dir: string;
let store: TranscriptStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'history-behind-'));
  store = TranscriptStore.open(join(dir, 'transcripts.db'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const question = 'echo lighthouse';
const reply = 'You said: "lighthouse"';

/** A turn as the local service streams it, from its start to its end. */
function liveTurn(recorder: TurnRecorder): void {
  recorder.noteSent('agent-a', 'c1', { turnId: 't1', content: question });
  const events: [string, Record<string, unknown>][] = [
    ['started', { turnId: 't1' }],
    ['chunk', { text: reply, turnId: 't1' }],
    ['done', { turnId: 't1', state: 'done' }],
  ];
  events.forEach(([event, data], i) => recorder.observe('agent-a', 'c1', { event, data, id: `t1.${i + 1}` }));
  recorder.flush();
}

const stored = () => store.readHistory('c1').messages.map((m) => [m.role, m.content]);
/** The server's copy while the turn ran: the question, stored at admission; the reply comes at its end. */
const whileRunning = (at: number) => [{ role: 'user' as const, content: question, at }];

it('a history whose download began before the turn ended leaves the recorded reply in place', async () => {
  const fetchedAt = Date.now() - 1000;
  const recorder = new TurnRecorder(store, { flushMs: 60_000 });
  liveTurn(recorder);
  expect(stored()).toEqual([
    ['user', question],
    ['assistant', reply],
  ]);

  await store.saveHistoryInSlices('agent-a', 'c1', whileRunning(fetchedAt), 0, 'v1', undefined, fetchedAt);
  expect(stored()).toEqual([
    ['user', question],
    ['assistant', reply],
  ]);
  // The opened conversation's history takes the same care.
  await store.saveOpenedHistory('agent-a', 'c1', whileRunning(fetchedAt), 0, fetchedAt);
  expect(stored()).toEqual([
    ['user', question],
    ['assistant', reply],
  ]);
  expect(store.storedTurns('c1').map((turn) => turn.replyText)).toEqual([reply]);
});

it('a history downloaded after the turn ended is the server’s word: a reply it no longer has goes', async () => {
  const recorder = new TurnRecorder(store, { flushMs: 60_000 });
  liveTurn(recorder);
  // Another device rewound the exchange (Retry there): the server now holds the question alone.
  const fetchedAt = Date.now() + 1;
  await store.saveHistoryInSlices('agent-a', 'c1', whileRunning(fetchedAt), 0, 'v2', undefined, fetchedAt);
  expect(stored()).toEqual([['user', question]]);
});
