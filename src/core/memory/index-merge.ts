import { setMergeSettings, shardNumbers, shardTable, startShardWhenFull } from './index-shards';
import type { MemoryDatabase } from './memory-database';

/**
 * The search index (FTS5) keeps its terms in segments and merges them. Left to itself it merges as a write
 * commits, inside that write, and as the index grows one such merge rewrites megabytes: up to 0.2 s of CPU
 * in one slice at 150,000 stored messages, a 2 s stall of the host at 1,000,000. So merging is turned off
 * for writes and done instead in bounded steps, each its own statement, with the event loop free between
 * them (after each slice of a history, and whenever the indexer has caught up). A step still grows with
 * the table it merges (it stops only between terms), so the index is kept in shards of bounded size
 * (index-shards.ts), and a full shard is replaced by a new one before the next steps.
 */

/** Pages (about 4 KB each) one step writes at most. */
const STEP_PAGES = 100;
/** Segments on one level that force a whole-level merge inside a write: a backstop, should steps fall behind. */
const CRISIS_SEGMENTS = 64;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Turns the index's merging within writes off, in every shard (a setting stored in each; setting it again is harmless). */
export function mergeIndexInSteps(db: MemoryDatabase): void {
  for (const n of shardNumbers(db)) setMergeSettings(db, shardTable(n), CRISIS_SEGMENTS);
}

/** One bounded merge step in `table`; false when there was nothing to merge. */
function mergeStep(db: MemoryDatabase, table: string): boolean {
  const changes = () => (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
  const before = changes();
  db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', ${STEP_PAGES})`).run();
  // FTS5 counts two changes or more when the step merged something.
  return changes() - before >= 2;
}

/**
 * Up to `steps` merge steps, the event loop free after each, the newest shard first (where writes go);
 * stops early when nothing is left to merge. Starts a new shard first when the newest is full.
 */
export async function mergeIndex(db: MemoryDatabase, steps: number, stopped: () => boolean = () => false) {
  if (startShardWhenFull(db)) await nextTurn();
  let step = 0;
  for (const n of shardNumbers(db)) {
    while (step < steps && !stopped()) {
      const merged = mergeStep(db, shardTable(n));
      step++;
      await nextTurn();
      if (!merged) break;
    }
    if (step >= steps || stopped()) return;
  }
}
