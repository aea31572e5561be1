/**
 * The one way a folder is opened to be synced (the app's folders, `agentdesk sync` and `agentdesk
 * sync resolve`): its lock first (one owner per folder), then its shared state, then the engine
 * over both. Closing gives the three back in the reverse order.
 */
import trash from 'trash';
import { SyncEngine, type SyncEngineOptions } from '../engine/sync-engine';
import type { RemoteSide } from '../plan/remote-side';
import { pathKey } from '../plan/sync-paths';
import { forgetLocallyMissing } from './held-deletes-undo';
import { lockFolder, type FolderLock } from '../state/folder-lock';
import { SyncStateStore, type ConflictRecord } from '../state/sync-state-store';

/** Where a synced folder is, whose it is, and where its state lives. */
export interface FolderPlace {
  root: string;
  agentId: string;
  stateFile: string;
}

/** How the engine runs in this folder; the place, the remote and the state come from the folder. */
export type EngineChoices = Omit<SyncEngineOptions, 'root' | 'agentId' | 'remote' | 'store' | 'trash'> & {
  /** Moves a local file to the OS trash (the `trash` package by default). */
  trash?: (absolutePath: string) => Promise<void>;
};

export class SyncedFolder {
  private opened: { store: SyncStateStore; engine: SyncEngine } | undefined;

  private constructor(
    readonly place: FolderPlace,
    private readonly lock: FolderLock,
  ) {}

  /** Takes the folder's lock, or throws `FolderBusyError` naming the process that holds it. */
  static claim(place: FolderPlace, who: string): SyncedFolder {
    return new SyncedFolder(place, lockFolder(place.stateFile, place.root, who));
  }

  /**
   * Opens the folder's state and its engine over `remote` (not started yet). `forgetBase`: the
   * folder starts as a first sync, so nothing on either side is read as deleted.
   */
  open(remote: RemoteSide, choices: EngineChoices = {}, forgetBase = false): SyncEngine {
    if (this.opened) throw new Error(`${this.place.root} is open already.`);
    const store = new SyncStateStore(this.place.stateFile);
    if (forgetBase) {
      for (const key of store.baseEntries().keys()) store.forgetBase(key);
      store.flush();
    }
    const engine = new SyncEngine({
      ...choices,
      root: this.place.root,
      agentId: this.place.agentId,
      remote,
      store,
      trash: choices.trash ?? ((path) => trash(path, { glob: false })),
    });
    this.opened = { store, engine };
    return engine;
  }

  get engine(): SyncEngine {
    if (!this.opened) throw new Error(`${this.place.root} is not open.`);
    return this.opened.engine;
  }

  /** The open conflict at `path` (as the person typed it, in the folder's terms). */
  conflictAt(path: string): ConflictRecord | undefined {
    const key = pathKey(path);
    return this.state()
      .conflicts()
      .find((c) => c.key === key);
  }

  /** Forgets the base of paths missing from the folder, so the next cycle brings them back. */
  bringBackMissing(): Promise<number> {
    return forgetLocallyMissing(this.place.root, this.state());
  }

  /** Closes the engine, then the state, then releases the lock. */
  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    try {
      if (opened) await opened.engine.close();
    } finally {
      opened?.store.close();
      this.lock.release();
    }
  }

  private state(): SyncStateStore {
    if (!this.opened) throw new Error(`${this.place.root} is not open.`);
    return this.opened.store;
  }
}
