import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HANDOFF_MESSAGES, type WriterRequest } from '../../../src/core/memory/memory-writer';
import { TranscriptStore } from '../../../src/core/memory/transcript-store';
import { TurnRecorder } from '../../../src/core/memory/turn-recorder';
import { garbageCollector } from '../../support/collect-garbage';

/**
 * The store's writer thread (memory-writer.ts), on real SQLite files: the slices of a downloaded history,
 * long messages and the index's merges are written by a thread of their own, so the host's event loop stays
 * mostly idle while they are; closing the store mid-way loses nothing already written.
 */
let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'memory-writer-'));
  file = join(dir, 'transcripts.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const T = Date.parse('2026-11-20T10:00:00Z');
const history = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => ({
    role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
    content: `zephyr message ${from + i} about the harbour, the lighthouse and the tide tables`,
    at: T + from + i,
  }));

/**
 * What this (the host's) thread does while `run` runs: the statements it prepares and the messages it
 * posts to a worker. libsql's prepare and the Worker's postMessage are only listened to, never replaced.
 */
async function hostThreadWork(
  run: () => Promise<unknown>,
): Promise<{ statements: string[]; posts: number; sent: WriterRequest[] }> {
  const statements: string[] = [];
  const sent: WriterRequest[] = [];
  let posts = 0;
  const prepare = Database.prototype.prepare;
  const post = Worker.prototype.postMessage;
  const spies = [
    vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (
      this: InstanceType<typeof Database>,
      sql,
    ) {
      statements.push(sql);
      return prepare.call(this, sql);
    }),
    vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (this: Worker, ...args) {
      posts += 1;
      sent.push(args[0] as WriterRequest);
      return post.apply(this, args);
    }),
  ];
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return { statements, posts, sent };
}

describe('the memory store writer thread', () => {
  it('is handed a downloaded history in one message, the host running none of its statements', async () => {
    const store = TranscriptStore.open(file);
    // A reply streamed here first: its text is stored once, in its message (reply-in-message.ts).
    const recorder = new TurnRecorder(store);
    recorder.noteSent('agent-a', 'c1', { turnId: 'u1', content: 'write notes' });
    let n = 0;
    const send = (event: string, data: unknown) =>
      recorder.observe('agent-a', 'c1', { event, data, id: `u1.${++n}` });
    send('started', { turnId: 'u1' });
    send('chunk', { text: 'I wrote it', turnId: 'u1' });
    send('done', { turnId: 'u1', state: 'done' });
    recorder.close();

    // The server's copy says the reply differently, among 600 messages (several slices).
    const server = [
      { role: 'user' as const, content: 'write notes', at: T },
      { role: 'assistant' as const, content: 'I wrote it, corrected by the server', at: T + 1 },
      ...history(598, 2),
    ];
    const work = await hostThreadWork(() => store.saveHistoryInSlices('agent-a', 'c1', server, 0, 'v1'));
    expect(work.statements).toEqual([]);
    expect(work.posts).toBe(1);

    expect(store.hasFullHistory('c1', 'v1')).toBe(true);
    expect(store.readHistory('c1').messages).toHaveLength(600);
    // The streamed text the server's replaced: kept with its turn, beside the server's.
    const reply = store.merged('c1').messages[1]!;
    expect(reply.content).toBe('I wrote it, corrected by the server');
    expect(reply.detail!.storedText).toBe('I wrote it');
    await store.close();
  });

  it("is handed an opened conversation's history; a turn sent meanwhile is written after it, not under it", async () => {
    const store = TranscriptStore.open(file);
    const recorder = new TurnRecorder(store);
    const opened = history(300);
    let written: Promise<void> = Promise.resolve();
    const work = await hostThreadWork(async () => {
      written = store.saveOpenedHistory('agent-a', 'c1', opened, 0);
      // The person sends at once: the turn's messages come after the history's 300, whenever it is written.
      recorder.noteSent('agent-a', 'c1', { turnId: 'u1', content: 'one more question' });
      recorder.observe('agent-a', 'c1', { event: 'started', data: { turnId: 'u1' }, id: 'u1.1' });
      recorder.observe('agent-a', 'c1', { event: 'chunk', data: { text: 'one more answer' }, id: 'u1.2' });
      recorder.observe('agent-a', 'c1', { event: 'done', data: { state: 'done' }, id: 'u1.3' });
      recorder.flush();
    });
    // Handed over in one message; the turn waits for the history instead of being written under it.
    expect(work.statements.filter((sql) => /^\s*(INSERT|UPDATE|DELETE)/i.test(sql))).toEqual([]);
    expect(work.posts).toBe(1);
    await written;
    await expect.poll(() => store.readHistory('c1').messages.length).toBe(302);
    const stored = store.readHistory('c1').messages;
    expect(stored.slice(0, 300).map((m) => m.content)).toEqual(opened.map((m) => m.content));
    expect(stored.slice(300).map((m) => [m.role, m.content, m.turnId])).toEqual([
      ['user', 'one more question', 'u1'],
      ['assistant', 'one more answer', 'u1'],
    ]);
    recorder.close();
    await store.close();
  });

  it('hands a long history over in parts, in the order histories were given', async () => {
    const store = TranscriptStore.open(file);
    await store.indexed();
    const long = history(HANDOFF_MESSAGES * 3 + 10);
    const work = await hostThreadWork(() =>
      Promise.all([
        store.saveHistoryInSlices('agent-a', 'c1', long, 0, 'v1'),
        // Given after the long one, so posted after all of it, though it is one part.
        store.saveHistoryInSlices('agent-a', 'c2', history(10), 0, 'v1'),
      ]),
    );
    // Posted whole, 6,010 messages held the host's thread for the clone of all of them at once.
    const shape = work.sent.map((request) => [
      request.kind,
      request.kind === 'part' || request.kind === 'history' ? request.messages.length : 0,
    ]);
    expect(shape).toEqual([
      ['part', HANDOFF_MESSAGES],
      ['part', HANDOFF_MESSAGES],
      ['part', HANDOFF_MESSAGES],
      ['history', 10],
      ['history', 10],
    ]);
    expect(new Set(work.sent.slice(0, 4).map((request) => request.id)).size).toBe(1);
    await store.indexed();
    expect(store.readHistory('c1').messages.map((m) => m.content)).toEqual(long.map((m) => m.content));
    expect(store.hasFullHistory('c1', 'v1')).toBe(true);
    expect(store.search({ text: 'zephyr 6009' }).some((hit) => hit.position === 6009)).toBe(true);
    expect(store.readHistory('c2').messages).toHaveLength(10);
    await store.close();
  });

  it('reads at most one part of a long history in one turn of the event loop', async () => {
    const store = TranscriptStore.open(file);
    await store.indexed();
    const long = history(HANDOFF_MESSAGES * 4);
    // Counts the host's reads of messages (a Proxy only counts, the array stays as it is).
    let read = 0;
    const counted = new Proxy(long, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) read += 1;
        return Reflect.get(target, key, receiver);
      },
    });
    const writing = store.saveHistoryInSlices('agent-a', 'c1', counted, 0, 'v1');
    // This turn: the first part cut and posted, each of its messages read twice. Cutting the whole
    // history first read all of it: 25-56 ms of the host's thread at 500,000 messages.
    expect(read).toBeLessThanOrEqual(HANDOFF_MESSAGES * 2);
    await writing;
    expect(store.readHistory('c1').messages.map((m) => m.content)).toEqual(long.map((m) => m.content));
    await store.close();
  });

  it('keeps none of a history on the host once it is handed over, while the thread still writes it', async () => {
    // Real collections: without them a WeakRef cannot tell whether the store still holds the messages.
    const collectGarbage = garbageCollector();
    const store = TranscriptStore.open(file);
    await store.indexed();
    // Made and handed over in a function of its own, so this test's frame holds no strong reference.
    const handOver = () => {
      const given = history(HANDOFF_MESSAGES * 2);
      return {
        held: new WeakRef(given),
        writing: store.saveHistoryInSlices('agent-a', 'c1', given, 0, 'v1'),
      };
    };
    const { held, writing } = handOver();
    let written = false;
    void writing.then(() => {
      written = true;
    });
    // Its two parts are posted a turn of the event loop apart; once both are, the host needs none of it.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(written).toBe(false);
    // Held until written, a 500,000-message history cost a 46 ms pause of the collector's marking.
    expect(held.deref()).toBeUndefined();
    await writing;
    expect(store.readHistory('c1').messages).toHaveLength(HANDOFF_MESSAGES * 2);
    expect(store.hasFullHistory('c1', 'v1')).toBe(true);
    await store.close();
  });

  it('aborted while it is handed over, posts no more of it and the thread drops what it was given', async () => {
    const store = TranscriptStore.open(file);
    await store.indexed();
    const abort = new AbortController();
    const work = await hostThreadWork(async () => {
      const writing = store.saveHistoryInSlices(
        'agent-a',
        'c1',
        history(HANDOFF_MESSAGES * 5),
        0,
        'v1',
        abort.signal,
      );
      // The first part is posted as the history is given, each next one a turn of the event loop later.
      await new Promise((resolve) => setImmediate(resolve));
      abort.abort();
      await writing;
    });
    expect(work.sent.map((request) => request.kind)).toEqual(['part', 'part', 'cancel']);
    expect(store.readHistory('c1').messages).toHaveLength(0);
    expect(store.hasFullHistory('c1', 'v1')).toBe(false);
    // The thread goes on: the same conversation stored again holds only the new history.
    await store.saveHistoryInSlices('agent-a', 'c1', history(10, 50), 0, 'v2');
    expect(store.readHistory('c1').messages.map((m) => m.content)).toEqual(
      history(10, 50).map((m) => m.content),
    );
    expect(store.hasFullHistory('c1', 'v2')).toBe(true);
    await store.close();
  });

  it('runs below the priority of the host thread, so handing it work never takes the CPU from the host (Linux)', async () => {
    /** A thread's niceness: field 19 of its stat (the name before it may hold spaces); null once it has ended. */
    const nice = (thread: string) => {
      try {
        return Number(readFileSync(`/proc/self/task/${thread}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
      } catch {
        return null;
      }
    };
    // The threads at niceness 10 (a writer of an earlier test may still be ending).
    const niced = () => readdirSync('/proc/self/task').filter((thread) => nice(thread) === 10);
    const before = niced();
    const store = TranscriptStore.open(file);
    await store.saveHistoryInSlices('agent-a', 'c1', history(10), 0, 'v1');
    expect(niced().filter((thread) => !before.includes(thread))).toHaveLength(1);
    expect(nice(String(process.pid))).toBe(0);
    await store.close();
  });

  it('stores and indexes a long history while the host thread is mostly idle', async () => {
    const store = TranscriptStore.open(file);
    // The writer thread is started and loaded before the measure (its start is not the host's work).
    await store.indexed();
    const before = performance.eventLoopUtilization();
    await store.saveHistoryInSlices('agent-a', 'c1', history(5000), 0, 'v1');
    await store.indexed();
    const used = performance.eventLoopUtilization(before);
    // Written on the host, this was the host's busiest work (its loop near fully used); here it waits.
    expect(used.utilization).toBeLessThan(0.5);
    expect(store.readHistory('c1').messages).toHaveLength(5000);
    expect(store.hasFullHistory('c1', 'v1')).toBe(true);
    expect(store.search({ text: 'zephyr 4999' }).some((hit) => hit.position === 4999)).toBe(true);
    await store.close();
  });

  it('closed while it writes, keeps what was written; a reopened store goes on', async () => {
    const store = TranscriptStore.open(file);
    const abort = new AbortController();
    const writing = store.saveHistoryInSlices('agent-a', 'c1', history(4000), 0, 'v1', abort.signal);
    // Stop after a few slices: the abort is seen between slices, the close lets the current step end.
    await new Promise((resolve) => setTimeout(resolve, 200));
    abort.abort();
    await writing;
    await store.close();

    const again = TranscriptStore.open(file);
    const kept = again.readHistory('c1').messages.length;
    expect(kept % 200).toBe(0); // whole slices only
    expect(again.hasFullHistory('c1', 'v1')).toBe(false);
    await again.saveHistoryInSlices('agent-a', 'c1', history(4000), 0, 'v1');
    await again.indexed();
    expect(again.readHistory('c1').messages).toHaveLength(4000);
    expect(again.hasFullHistory('c1', 'v1')).toBe(true);
    expect(again.search({ text: 'zephyr 3999' }).some((hit) => hit.position === 3999)).toBe(true);
    await again.close();
  });
});
