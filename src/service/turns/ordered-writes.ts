import type { Executor } from '../db/statement';

/**
 * The turn manager's writes to the store, in the order it made them. During an admission they go on its
 * transaction, and the admission commits only once they all landed; otherwise each is queued after the
 * writes before it, and a failure is logged: the turn goes on in memory. `settled` lets the close wait for
 * them, so a stopping service still records its turns' last state.
 */
export class OrderedWrites {
  /** The admission under way (set only while its decision runs) and the writes it made. */
  private tx: Executor | undefined;
  private readonly txWrites: Promise<unknown>[] = [];
  /** The queued writes not landed yet: the service's close awaits them before it closes the store. */
  private readonly queued = new Set<Promise<void>>();

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
    if (this.tx) {
      this.txWrites.push(done);
      return;
    }
    const landed: Promise<void> = done
      .then(
        () => undefined,
        (error: unknown) => console.error(`turns: not recorded: ${(error as Error).message}`),
      )
      .finally(() => this.queued.delete(landed));
    this.queued.add(landed);
  }

  /** Resolves once every write queued so far landed (or failed), those queued meanwhile included. */
  async settled(): Promise<void> {
    while (this.queued.size > 0) await Promise.all([...this.queued]);
  }
}
