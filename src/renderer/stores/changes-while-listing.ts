/** What this window added or removed while one listing was on its way. */
export interface ChangesMeanwhile<T> {
  added: Map<string, T>;
  removed: Set<string>;
}

/**
 * A slow host can answer a listing read before a change after that change's own answer: the listing predates
 * the change, which must stand over it. Each listing awaited collects the changes made meanwhile in its scope
 * (an agent's conversations, the library), for its store to lay over the answer.
 */
export function changesWhileListing<T extends { id: string }>() {
  const awaited = new Set<{ scope: string; changes: ChangesMeanwhile<T> }>();
  return {
    added(scope: string, item: T): void {
      for (const a of awaited) if (a.scope === scope) a.changes.added.set(item.id, item);
    },
    removed(scope: string, id: string): void {
      for (const a of awaited) if (a.scope === scope) a.changes.removed.add(id);
    },
    /** Runs `read` (the listing), and answers it with the changes made while it was on its way. */
    async list<R>(scope: string, read: () => Promise<R>): Promise<[R, ChangesMeanwhile<T>]> {
      const entry = { scope, changes: { added: new Map<string, T>(), removed: new Set<string>() } };
      awaited.add(entry);
      try {
        return [await read(), entry.changes];
      } finally {
        awaited.delete(entry);
      }
    },
  };
}
