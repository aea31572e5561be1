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

/**
 * A listing with the changes made while it was on its way laid over it: what was added here (newest first,
 * unless removed since) and what the listing holds, less what was removed here. Where both have an item,
 * `kept` says which copy stands: the listing's (the server's word is newer) or ours (say, an upload's row).
 */
export function overlay<T extends { id: string }>(
  listed: readonly T[],
  changes: ChangesMeanwhile<T>,
  kept: 'listed' | 'ours',
): T[] {
  const listedIds = new Set(listed.map((item) => item.id));
  const ours = [...changes.added.values()]
    .reverse()
    .filter((item) => !changes.removed.has(item.id) && (kept === 'ours' || !listedIds.has(item.id)));
  const oursIds = new Set(ours.map((item) => item.id));
  return [...ours, ...listed.filter((item) => !changes.removed.has(item.id) && !oursIds.has(item.id))];
}
