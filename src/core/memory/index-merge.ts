import type { MemoryDatabase } from './memory-database';

/**
 * The search index (FTS5) keeps its terms in segments and merges them. Left to itself it merges as a write
 * commits, inside that write, and as the index grows one such merge rewrites megabytes: up to 0.2 s of CPU
 * in one slice at 150,000 stored messages, a 2 s stall of the host at 1,000,000. So merging is turned off
 * for writes and done instead in bounded steps, each its own statement, with the event loop free between
 * them (after each slice of a history, and whenever the indexer has caught up).
 */

/** Pages (about 4 KB each) one step writes at most. */
const STEP_PAGES = 100;
/** Segments on one level that force a whole-level merge inside a write: a backstop, should steps fall behind. */
const CRISIS_SEGMENTS = 64;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Turns the index's merging within writes off (a setting stored in the index; setting it again is harmless). */
export function mergeIndexInSteps(db: MemoryDatabase): void {
  db.prepare("INSERT INTO parts_fts (parts_fts, rank) VALUES ('automerge', 0)").run();
  // FTS5 takes only an integer here, and a bound JavaScript number arrives as a real: the constant is written in.
  db.prepare(`INSERT INTO parts_fts (parts_fts, rank) VALUES ('crisismerge', ${CRISIS_SEGMENTS})`).run();
}

/** One bounded merge step; false when there was nothing to merge. */
function mergeStep(db: MemoryDatabase): boolean {
  const changes = () => (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
  const before = changes();
  db.prepare(`INSERT INTO parts_fts (parts_fts, rank) VALUES ('merge', ${STEP_PAGES})`).run();
  // FTS5 counts two changes or more when the step merged something.
  return changes() - before >= 2;
}

/** Up to `steps` merge steps, the event loop free after each; stops early when nothing is left to merge. */
export async function mergeIndex(db: MemoryDatabase, steps: number, stopped: () => boolean = () => false) {
  for (let step = 0; step < steps && !stopped(); step++) {
    const merged = mergeStep(db);
    await nextTurn();
    if (!merged) return;
  }
}
