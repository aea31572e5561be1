/**
 * The memory store's writer thread (memory-writer.ts starts it): its own connection to the transcript
 * database, on which it writes the slices of downloaded histories, indexes long messages in parts and merges
 * the search index. SQLite's work there never holds the host's event loop; the host only hands rows over.
 */
import Database from 'libsql';
import { parentPort, workerData } from 'node:worker_threads';
import { keepTransactionErrors } from '../../shared/storage/sqlite-transaction';
import { writeHistory } from './history-writer';
import { setShardChars } from './index-shards';
import type { MemoryDatabase } from './memory-database';
import { MessageIndexer } from './message-indexer';
import type { WriterAnswer, WriterOptions, WriterRequest } from './memory-writer';

const port = parentPort!;
const options = workerData as WriterOptions;
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

async function handle(request: WriterRequest): Promise<void> {
  if (request.kind === 'history') {
    const whole = await writeHistory(db, request, () => closing || cancelled.has(request.id));
    cancelled.delete(request.id);
    // Long messages of it are indexed in parts, and the index merged, after the answer (not awaited).
    if (whole) indexer.start().catch(() => undefined);
  } else if (request.kind === 'index') {
    await indexer.start();
  }
}

port.on('message', (request: WriterRequest) => {
  if (request.kind === 'cancel') {
    if (busy > 0) cancelled.add(request.target);
    return;
  }
  if (request.kind === 'close') {
    closing = true;
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
