/**
 * The memory store's writer thread (memory-writer.ts starts it): its own connection to the transcript
 * database, on which it writes the slices of downloaded histories and the turns of long replies, indexes long
 * messages in parts and merges the search index. SQLite's work there never holds the host's event loop; the
 * host only hands rows over.
 */
import Database from 'libsql';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { keepTransactionErrors } from '../../shared/storage/sqlite-transaction';
import type { HistoryMessage } from './history-merge';
import { writeHistory } from './history-writer';
import { setShardChars } from './index-shards';
import type { MemoryDatabase } from './memory-database';
import { MessageIndexer } from './message-indexer';
import type { WriterAnswer, WriterOptions, WriterRequest } from './memory-writer';
import { writeTurns } from './turn-writer';

/** Its niceness (0 is the process's own, 19 the least): below the host's thread, above idle. */
const WRITER_NICE = 10;
const port = parentPort!;
const options = workerData as WriterOptions;
lowerPriority();
// The host opened the file first (migrations, WAL, modes): this connection only joins it.
const db = keepTransactionErrors(new Database(options.file)) as MemoryDatabase;
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
if (options.shardChars !== undefined) setShardChars(db, options.shardChars);
const indexer = new MessageIndexer(db);
let closing = false;
let busy = 0;
let idle: (() => void) | null = null;
/** Requests whose history is to stop at its next slice (the host's download was aborted). */
const cancelled = new Set<number>();
/** The messages of histories still being handed over (`part`), by request. */
const parts = new Map<number, HistoryMessage[]>();

async function handle(request: WriterRequest): Promise<void> {
  if (request.kind === 'history') {
    const before = parts.get(request.id);
    parts.delete(request.id);
    const history = before ? { ...request, messages: before.concat(request.messages) } : request;
    const whole = await writeHistory(db, history, () => closing || cancelled.has(request.id));
    cancelled.delete(request.id);
    // Long messages of it are indexed in parts, and the index merged, after the answer (not awaited).
    if (whole) indexer.start().catch(() => undefined);
  } else if (request.kind === 'turns') {
    writeTurns(db, request.turns);
    indexer.start().catch(() => undefined);
  } else if (request.kind === 'index') {
    await indexer.start();
  }
}

port.on('message', (request: WriterRequest) => {
  if (request.kind === 'cancel') {
    // Stopped while handed over: its parts are dropped and no `history` request follows.
    parts.delete(request.target);
    if (busy > 0) cancelled.add(request.target);
    return;
  }
  if (request.kind === 'part') {
    if (closing) return;
    const messages = parts.get(request.id) ?? [];
    for (const message of request.messages) messages.push(message);
    parts.set(request.id, messages);
    return;
  }
  if (request.kind === 'close') {
    closing = true;
    parts.clear();
    indexer.stop();
    const finish = () => {
      db.close();
      port.postMessage({ id: request.id, ok: true } satisfies WriterAnswer);
      port.close();
    };
    if (busy === 0) finish();
    else idle = finish;
    return;
  }
  if (closing) {
    port.postMessage({
      id: request.id,
      ok: false,
      message: 'the memory store is closed',
    } satisfies WriterAnswer);
    return;
  }
  busy += 1;
  handle(request)
    .then(
      () => port.postMessage({ id: request.id, ok: true } satisfies WriterAnswer),
      (error: unknown) =>
        port.postMessage({
          id: request.id,
          ok: false,
          message: error instanceof Error ? error.message : String(error),
        } satisfies WriterAnswer),
    )
    .finally(() => {
      busy -= 1;
      if (busy === 0 && idle) idle();
    });
});

/**
 * Where the OS lets a thread have its own priority (Linux: /proc/thread-self names this thread's id), this
 * one yields the CPU to every other thread of the app: on a busy machine each history handed over woke it
 * and it took the CPU from the host's thread (3.4 ms of the host's wall time per handoff, 700 ms over a
 * month's download at load 12), while none of its work is waited for by a person.
 */
function lowerPriority(): void {
  try {
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(thread) && thread > 0) setPriority(thread, WRITER_NICE);
  } catch {
    // Elsewhere (macOS, Windows) the thread keeps the process's priority.
  }
}
