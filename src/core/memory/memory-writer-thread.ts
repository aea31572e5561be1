/**
 * The memory store's writer thread (memory-writer.ts starts it): its own connection to the transcript
 * database, on which it writes the slices of downloaded histories, indexes long messages in parts and merges
 * the search index. SQLite's work there never holds the host's event loop; the host only hands rows over.
 */
import Database from 'libsql';
import { parentPort, workerData } from 'node:worker_threads';
import { keepTransactionErrors } from '../../shared/storage/sqlite-transaction';
import { finishHistory, writeSlice, SLICE_MERGE_STEPS } from './history-writer';
import { mergeIndex } from './index-merge';
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

async function handle(request: WriterRequest): Promise<void> {
  if (request.kind === 'slice') {
    writeSlice(db, request.conversationId, request.rows);
    // What the slice added to the search index is merged in bounded steps (index-merge.ts).
    await mergeIndex(db, SLICE_MERGE_STEPS, () => closing);
  } else if (request.kind === 'finish') {
    finishHistory(db, request.conversationId, request.end, request.version);
  } else if (request.kind === 'index') {
    await indexer.start();
  }
}

port.on('message', (request: WriterRequest) => {
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
