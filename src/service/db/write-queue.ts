import type { Executor } from './statement';

/**
 * Writes that must land in the order they were issued, though the code issuing them does not wait (the turn
 * manager decides in memory, synchronously, and records as it goes). Reads made without a transaction wait
 * for the writes issued before them, so a client that saw an event finds its rows.
 */
export function createWriteQueue(db: Executor) {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    /** Runs `job` after every job queued before it; with `on` (a transaction), at once on it. */
    write<T>(on: Executor | undefined, job: (db: Executor) => Promise<T>): Promise<T> {
      if (on) return job(on);
      const result = tail.then(() => job(db));
      tail = result.catch(() => undefined);
      return result;
    },
    /** Runs `job` once the writes queued so far landed; with `on`, at once on it. */
    async read<T>(on: Executor | undefined, job: (db: Executor) => Promise<T>): Promise<T> {
      if (!on) await tail;
      return job(on ?? db);
    },
    /** Runs `job` in one transaction, in the queue's order (all its writes land, or none). */
    atomic<T>(job: (trx: Executor) => Promise<T>): Promise<T> {
      const result = tail.then(() => db.transaction().execute(job));
      tail = result.catch(() => undefined);
      return result;
    },
  };
}

export type WriteQueue = ReturnType<typeof createWriteQueue>;
