/**
 * A synced folder's records, read without holding the folder (another process may sync it
 * meanwhile): its open conflicts, and resolutions asked of the process that holds it
 * (resolve-requests.ts), which only that process may carry out.
 */
import type { SyncConflictChoice } from '../../../shared/bridge';
import { pathKey } from '../plan/sync-paths';
import { ResolveRequests, type ResolveAnswer } from '../state/resolve-requests';
import { SyncStateStore, type ConflictRecord } from '../state/sync-state-store';

export class FolderRecords {
  private readonly store: SyncStateStore;
  private asked: ResolveRequests | undefined;

  constructor(stateFile: string) {
    this.store = new SyncStateStore(stateFile);
  }

  conflicts(): ConflictRecord[] {
    return this.store.conflicts();
  }

  /** The open conflict at `path` (as the person typed it, in the folder's terms). */
  conflictAt(path: string): ConflictRecord | undefined {
    const key = pathKey(path);
    return this.conflicts().find((c) => c.key === key);
  }

  /** Asks the folder's holder to settle conflict `key`; its answer comes through `answerOf`. */
  askHolder(key: string, choice: SyncConflictChoice): number {
    return this.requests().ask(key, choice);
  }

  answerOf(id: number): ResolveAnswer | undefined {
    return this.requests().answerOf(id);
  }

  withdraw(id: number): void {
    this.requests().withdraw(id);
  }

  /** Opened on the first request only: listing conflicts writes nothing. */
  private requests(): ResolveRequests {
    this.asked ??= new ResolveRequests(this.store.database);
    return this.asked;
  }

  close(): void {
    this.store.close();
  }
}
