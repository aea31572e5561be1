/**
 * Per conversation, the writes handed to the store's writer thread and not yet done (an opened history, a
 * long reply's turn), chained so each lands in the order given. The host's own writes of a conversation wait
 * for its chain (turn-recorder.ts), and its reads of it too (host-memory.ts), so none lands out of order.
 */
export class WriteChains {
  private readonly chains = new Map<string, Promise<void>>();

  /** `write` once the writes given before it for the conversation are done (failed ones too). */
  after(conversationId: string, write: () => Promise<void>): Promise<void> {
    const earlier = this.chains.get(conversationId) ?? Promise.resolve();
    const written = earlier.then(write);
    const settled = written.catch(() => undefined);
    this.chains.set(conversationId, settled);
    void settled.then(() => {
      if (this.chains.get(conversationId) === settled) this.chains.delete(conversationId);
    });
    return written;
  }

  /** Resolves (never rejects) once the conversation's chain is done; undefined when none is under way. */
  underWay(conversationId: string): Promise<void> | undefined {
    return this.chains.get(conversationId);
  }

  /** Resolves once every chain given so far is done. */
  allDone(): Promise<void> {
    return Promise.all(this.chains.values()).then(() => undefined);
  }
}
