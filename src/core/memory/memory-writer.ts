import { Worker } from 'node:worker_threads';
import { threadEntry } from '../common/thread-entry';
import type { HistoryMessage } from './history-merge';
import { historySlices, type HistoryWrite } from './history-writer';
import type { TurnWrite } from './turn-writer';

export interface WriterOptions {
  file: string;
  /** The search index's shard size (index-shards.ts), when not the default (tests). */
  shardChars?: number;
}

export type WriterRequest = { id: number } & (
  | ({ kind: 'history' } & HistoryWrite)
  /** The next messages of history `id`, ahead of its `history` request (which holds the rest). */
  | { kind: 'part'; messages: readonly HistoryMessage[] }
  /** Stops the history of request `target` at its next slice. */
  | { kind: 'cancel'; target: number }
  | { kind: 'index' }
  /** Turns of long replies (turn-writer.ts), written in one transaction. */
  | { kind: 'turns'; turns: readonly TurnWrite[] }
  | { kind: 'close' }
);
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
export type WriterAnswer = { id: number; ok: true } | { id: number; ok: false; message: string };

/**
 * Most of a history in one message to the thread. Posting clones on the host's thread (about 2 µs a
 * message): a 500,000-message history posted whole held it for 1.1 s; a part of these limits takes a few ms.
 */
export const HANDOFF_MESSAGES = 2_000;
export const HANDOFF_CHARS = 1_000_000;

/**
 * The thread that writes for a transcript store (memory-writer-thread.ts), with its own connection:
 * downloaded histories (handed over in parts, the host's loop free between them), long messages indexed in parts, the
 * search index's merge steps. Those are SQLite's longest pieces of work (a merge step up to 17 ms of CPU,
 * a slice about 5 ms); on the host's thread each one stalled the event loop for its length and longer on
 * a busy machine. Started on the first write it is given; each request resolves once its work is on disk.
 */
export class MemoryWriter {
  private worker: Worker | null = null;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private closed = false;
  /** The histories being handed over, one after another: the thread gets them whole in call order. */
  private handoffs: Promise<void> = Promise.resolve();
  private handing = 0;

  constructor(private readonly options: WriterOptions) {}

  /**
   * Stores a downloaded history (history-writer.ts), handed over in parts, one per turn of the host's
   * event loop, and in the order the histories were given: the thread writes it in slices, then starts
   * indexing what is pending. An abort of `signal` stops it at its next part or slice (what was written
   * stays; the history does not count as stored). Resolves once the thread is done with it; the host
   * keeps none of it once it is handed over (a caller that does not either keeps the garbage collector's
   * marking of it: 46 ms in one pause for a history of 500,000 messages).
   */
  writeHistory(history: HistoryWrite, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted || this.closed) return Promise.resolve();
    const { id, answered } = this.expectAnswer();
    // Told apart from requests: the thread answers none, it only marks `target` to stop (or drops its parts).
    const cancel = () =>
      this.worker?.postMessage({ id: 0, kind: 'cancel', target: id } satisfies WriterRequest);
    signal?.addEventListener('abort', cancel, { once: true });
    // No closure here holds `history`: the host lets go of it once handed over, not once written.
    this.queueHandOver(id, history, signal);
    return answered.finally(() => signal?.removeEventListener('abort', cancel));
  }

  /**
   * Writes turns as the host would (turn-writer.ts), in one transaction, then indexes what is pending: a
   * long reply's text is copied into SQLite here, not on the host's thread. Posting clones the turns there
   * (about 1 ms for 1 MB), so later changes to them go in a later request.
   */
  writeTurns(turns: readonly TurnWrite[]): Promise<void> {
    return this.request({ kind: 'turns', turns });
  }

  /** Indexes what is pending (long messages) and merges the index until nothing is left. */
  index(): Promise<void> {
    return this.request({ kind: 'index' });
  }

  /** Lets the current step finish, then closes the thread's connection; resolves once it has. */
  close(): Promise<void> {
    if (this.closed || !this.worker) {
      this.closed = true;
      return Promise.resolve();
    }
    this.closed = true;
    return this.send({ kind: 'close' }).catch(() => undefined);
  }

  private request(request: WithoutId<WriterRequest>): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.send(request);
  }

  private send(request: WithoutId<WriterRequest>): Promise<void> {
    const { id, answered } = this.expectAnswer();
    this.worker!.postMessage({ ...request, id } as WriterRequest);
    return answered;
  }

  /** A new request's id, and its answer to come; the thread is started for it. */
  private expectAnswer(): { id: number; answered: Promise<void> } {
    const worker = this.started();
    const id = ++this.next;
    // Referenced only while an answer is awaited: an idle writer never keeps the process alive.
    if (this.waiting.size === 0) worker.ref();
    const answered = new Promise<void>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    return { id, answered };
  }

  /** Hands history `id` over after those under way; at once when none is, so a short one is posted before this returns. */
  private queueHandOver(id: number, history: HistoryWrite, signal?: AbortSignal): void {
    const start = () => this.handOver(id, history, signal);
    const handedOver = this.handing > 0 ? this.handoffs.then(start) : start();
    this.handing += 1;
    this.handoffs = handedOver.then(
      () => {
        this.handing -= 1;
      },
      (error: unknown) => {
        this.handing -= 1;
        this.settle({ id, ok: false, message: String(error) });
      },
    );
  }

  /**
   * Posts history `id`: every part but the last as `part`, a turn of the event loop after each, then the
   * `history` request with the rest. Each part is cut as it is posted, so a turn reads at most one part's
   * messages (cutting all 500,000 of a long history first took the host 25-56 ms in one go). Stops
   * (answered at once) when the store closes or the download is aborted meanwhile; the thread drops the
   * parts it was given then (the cancel, or its close).
   */
  private async handOver(id: number, history: HistoryWrite, signal?: AbortSignal): Promise<void> {
    const { messages } = history;
    const stopped = () => this.closed || signal?.aborted === true || !this.waiting.has(id);
    let from = 0;
    for (let to = nextPartEnd(messages, from); to < messages.length; to = nextPartEnd(messages, from)) {
      if (stopped()) return this.settle({ id, ok: true });
      this.worker!.postMessage({
        id,
        kind: 'part',
        messages: messages.slice(from, to),
      } satisfies WriterRequest);
      from = to;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (stopped()) return this.settle({ id, ok: true });
    const rest = from === 0 ? messages : messages.slice(from);
    this.worker!.postMessage({ ...history, id, kind: 'history', messages: rest } satisfies WriterRequest);
  }

  /** Ends the wait for request `id` (the thread's answer, or an early end here). */
  private settle(answer: WriterAnswer): void {
    const waiting = this.waiting.get(answer.id);
    if (!waiting) return;
    this.waiting.delete(answer.id);
    if (this.waiting.size === 0) this.worker?.unref();
    if (answer.ok) waiting.resolve();
    else waiting.reject(new Error(answer.message));
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const entry = writerEntry();
    const worker = new Worker(entry, { workerData: this.options, eval: typeof entry === 'string' });
    worker.on('message', (answer: WriterAnswer) => this.settle(answer));
    const failAll = (error: Error) => {
      for (const { reject } of this.waiting.values()) reject(error);
      this.waiting.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', () => {
      failAll(new Error('the memory store writer stopped'));
      if (this.worker === worker) this.worker = null;
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/** Where the part of `messages` that starts at `from` ends: the first of their slices within the handoff's limits. */
function nextPartEnd(messages: readonly HistoryMessage[], from: number): number {
  const [first] = historySlices(
    messages.slice(from, from + HANDOFF_MESSAGES),
    HANDOFF_CHARS,
    HANDOFF_MESSAGES,
  );
  return from + (first?.[1] ?? 0);
}

/** The thread's code (common/thread-entry.ts): the Electron main process names its build. */
function writerEntry(): URL | string {
  return threadEntry({
    named: process.env['AGENTDESK_MEMORY_WRITER_JS'],
    built: new URL('./memory-writer.js', import.meta.url),
    source: new URL('./memory-writer-thread.ts', import.meta.url),
  });
}
