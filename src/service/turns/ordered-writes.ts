import type { Executor } from '../db/statement';

/**
 * The turn manager's writes to the store, in the order it made them. During an admission they go on its
 * transaction, and the admission commits only once they all landed; otherwise each is queued after the
 * writes before it, and a failure is logged: the turn goes on in memory.
 */
export class OrderedWrites {
  /** The admission under way (set only while its decision runs) and the writes it made. */
  private tx: Executor | undefined;
  private readonly txWrites: Promise<unknown>[] = [];

  /** Runs a synchronous decision on `trx`; resolves with its result once every write it made landed. */
  async during<T>(trx: Executor, decide: () => T): Promise<T> {
    this.tx = trx;
    let result: T;
    try {
      result = decide();
    } finally {
      this.tx = undefined;
    }
    const writes = await Promise.allSettled(this.txWrites.splice(0));
    for (const write of writes) if (write.status === 'rejected') throw write.reason;
    return result;
  }

  persist(write: (on: Executor | undefined) => Promise<unknown>): void {
    const done = write(this.tx);
    if (this.tx) this.txWrites.push(done);
    else done.catch((error: unknown) => console.error(`turns: not recorded: ${(error as Error).message}`));
  }
}
