import type { ProviderStore, StoredProvider } from './provider-store';

/** People whose providers are kept in memory: a cap for a server of many people, not a working size. */
const KEPT_PEOPLE = 1_000;

export type KeptProviderStore = ProviderStore & {
  /** Drops what is kept of the person (their account was deleted). */
  forget(personId: string): void;
};

/**
 * The provider store with each person's list kept in memory from one change of theirs to the next. Only
 * for a service that is its store's only writer: in a cluster another process may add a key. The model
 * agent is handed the person's providers as a turn starts; read from the database, that read waited for
 * the admission's transaction to let go of the one connection, and the prompt left ~2 ms later
 * (docs/benchmarks.md).
 */
export function keptProviderStore(store: ProviderStore): KeptProviderStore {
  const kept = new Map<string, Promise<StoredProvider[]>>();
  const forget = (personId: string) => void kept.delete(personId);
  // Forgotten once the write is done (whatever its outcome), so a read made during it is not kept.
  const thenForget = async <T>(personId: string, write: Promise<T>): Promise<T> => {
    try {
      return await write;
    } finally {
      forget(personId);
    }
  };
  return {
    list(personId) {
      const known = kept.get(personId);
      if (known) return known;
      if (kept.size >= KEPT_PEOPLE) forget(kept.keys().next().value as string);
      const read = store.list(personId);
      kept.set(personId, read);
      // A failed read is not kept: the next one asks the database again.
      read.catch(() => {
        if (kept.get(personId) === read) forget(personId);
      });
      return read;
    },
    add: (personId, provider) => thenForget(personId, store.add(personId, provider)),
    remove: (personId, id) => thenForget(personId, store.remove(personId, id)),
    forget,
  };
}
