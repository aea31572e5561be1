import { Worker } from 'node:worker_threads';
import { threadEntry } from '../common/thread-entry';
import type { HistoryWrite } from './history-writer';

export interface WriterOptions {
  file: string;
  /** The search index's shard size (index-shards.ts), when not the default (tests). */
  shardChars?: number;
}

export type WriterRequest = { id: number } & (
  | ({ kind: 'history' } & HistoryWrite)
  /** Stops the history of request `target` at its next slice. */
  | { kind: 'cancel'; target: number }
  | { kind: 'index' }
  | { kind: 'close' }
);
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
export type WriterAnswer = { id: number; ok: true } | { id: number; ok: false; message: string };

/**
 * The thread that writes for a transcript store (memory-writer-thread.ts), with its own connection:
 * downloaded histories (each handed over whole, in one message), long messages indexed in parts, the
 * search index's merge steps. Those are SQLite's longest pieces of work (a merge step up to 17 ms of CPU,
 * a slice about 5 ms); on the host's thread each one stalled the event loop for its length and longer on
 * a busy machine. Started on the first write it is given; each request resolves once its work is on disk.
 */
export class MemoryWriter {
  private worker: Worker | null = null;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private closed = false;

  constructor(private readonly options: WriterOptions) {}

  /**
   * Stores a downloaded history (history-writer.ts), handed over whole: the thread writes it in slices,
   * then starts indexing what is pending. An abort of `signal` stops it at its next slice (what was written
   * stays; the history does not count as stored). Resolves once the thread is done with it.
   */
  writeHistory(history: HistoryWrite, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted || this.closed) return Promise.resolve();
    const id = this.next + 1;
    // Told apart from requests: the thread answers none, it only marks `target` to stop.
    const cancel = () =>
      this.worker?.postMessage({ id: 0, kind: 'cancel', target: id } satisfies WriterRequest);
    signal?.addEventListener('abort', cancel, { once: true });
    return this.send({ kind: 'history', ...history }).finally(() =>
      signal?.removeEventListener('abort', cancel),
    );
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
    const worker = this.started();
    const id = ++this.next;
    // Referenced only while an answer is awaited: an idle writer never keeps the process alive.
    if (this.waiting.size === 0) worker.ref();
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id } as WriterRequest);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const entry = writerEntry();
    const worker = new Worker(entry, { workerData: this.options, eval: typeof entry === 'string' });
    worker.on('message', (answer: WriterAnswer) => {
      const waiting = this.waiting.get(answer.id);
      if (!waiting) return;
      this.waiting.delete(answer.id);
      if (this.waiting.size === 0) worker.unref();
      if (answer.ok) waiting.resolve();
      else waiting.reject(new Error(answer.message));
    });
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

/** The thread's code (common/thread-entry.ts): the Electron main process names its build. */
function writerEntry(): URL | string {
  return threadEntry({
    named: process.env['AGENTDESK_MEMORY_WRITER_JS'],
    built: new URL('./memory-writer.js', import.meta.url),
    source: new URL('./memory-writer-thread.ts', import.meta.url),
  });
}
