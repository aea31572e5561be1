import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** One message of a history slice as it is stored: its position, role, text, time and turn. */
export type SliceRow = [position: number, role: string, content: string, at: number, turnId: string | null];

export interface WriterOptions {
  file: string;
  /** The search index's shard size (index-shards.ts), when not the default (tests). */
  shardChars?: number;
}

export type WriterRequest = { id: number } & (
  | { kind: 'slice'; conversationId: string; rows: SliceRow[] }
  | { kind: 'finish'; conversationId: string; end: number; version?: string | null }
  | { kind: 'index' }
  | { kind: 'close' }
);
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
export type WriterAnswer = { id: number; ok: true } | { id: number; ok: false; message: string };

/**
 * The thread that writes for a transcript store (memory-writer-thread.ts), with its own connection: the
 * slices of a downloaded history, long messages indexed in parts, the search index's merge steps. Those
 * are SQLite's longest pieces of work (a merge step up to 17 ms of CPU, a slice about 5 ms); on the
 * host's thread each one stalled the event loop for its length and longer on a busy machine. Started on
 * the first write it is given; each request resolves once its work is on disk.
 */
export class MemoryWriter {
  private worker: Worker | null = null;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private closed = false;

  constructor(private readonly options: WriterOptions) {}

  /** Writes one slice of a history (in one transaction), then merges what it added a few steps. */
  writeSlice(conversationId: string, rows: SliceRow[]): Promise<void> {
    return this.request({ kind: 'slice', conversationId, rows });
  }

  /**
   * The end of a history written in slices: messages from `end` on are deleted; with a `version` (null
   * for none), the history was whole and counts as stored for that server state.
   */
  finishHistory(conversationId: string, end: number, version?: string | null): Promise<void> {
    return this.request({
      kind: 'finish',
      conversationId,
      end,
      ...(version !== undefined ? { version } : {}),
    });
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

/**
 * Where the thread's code is: the built memory-writer.js beside this bundle (out/node/; the Electron main
 * process names it in AGENTDESK_MEMORY_WRITER_JS), else the TypeScript source, loaded through tsx's loader
 * registered in the thread first (dev, tests): a worker does not take `--import` in its execArgv.
 */
function writerEntry(): URL | string {
  const named = process.env['AGENTDESK_MEMORY_WRITER_JS'];
  if (named) return pathToFileURL(named);
  const built = new URL('./memory-writer.js', import.meta.url);
  if (built.protocol === 'file:' && existsSync(fileURLToPath(built))) return built;
  // tsx's ES module API (its package exports it beside the CommonJS one require finds).
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const source = new URL('./memory-writer-thread.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`;
}
