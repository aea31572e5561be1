/**
 * Every synced folder of the signed-in person, for the desktop host: which folder belongs to which agent
 * (remembered in the app's data folder), one engine each, and the hints from conversations routed to it.
 * A folder that cannot start (another process holds it, the folder or the agent cannot be reached) is
 * listed with an error status saying why, and tried again later.
 */
import { join } from 'node:path';
import { readFolderChoices, writeFolderChoices, type SyncFolder } from './folder-choices';
import { FolderBusyError, folderOwner } from '../state/folder-lock';
import { historyUse, type HistoryUse } from '../history/history-use';
import { describeStartFailure, retryDelay } from './start-failure';
import type { ConflictChoice, SyncEngine, SyncStatus } from '../engine/sync-engine';
import {
  startSyncedFolder,
  type FolderStartOptions,
  type RunningFolder,
  type StartError,
} from './synced-folder-start';
import { VersionHistory } from '../history/version-history';

export interface SyncFolderState extends SyncFolder {
  agentName: string;
  status: SyncStatus;
}

export interface SyncManagerOptions extends FolderStartOptions {
  onStatus?: (state: SyncFolderState) => void;
  /** How soon a folder another process holds is tried again (failures back off from it, up to 5 min). */
  retryMs?: number;
}

/** A remembered folder that could not start here; its timer tries again. */
interface Waiting {
  folder: SyncFolder;
  status: SyncStatus;
  /** Known once the folder's state was found: the history can be read meanwhile. */
  stateFile?: string;
  tries: number;
  timer?: NodeJS.Timeout;
}

export class SyncManager {
  private readonly running = new Map<string, RunningFolder>();
  private readonly waiting = new Map<string, Waiting>();
  /** A start under way per agent, so a retry, a choice and a stop never overlap. */
  private readonly starting = new Map<string, Promise<SyncFolderState>>();
  private readonly foldersFile: string;
  private closed = false;

  constructor(private readonly options: SyncManagerOptions) {
    this.foldersFile = join(options.dataDir, 'sync', 'folders.json');
  }

  /** Starts every remembered folder; one that cannot start is listed with the reason and tried again later. */
  async start(): Promise<void> {
    for (const folder of await readFolderChoices(this.foldersFile)) {
      this.waiting.set(folder.agentId, { folder, status: this.pendingStatus(folder.root), tries: 0 });
      await this.retry(folder.agentId);
    }
  }

  list(): SyncFolderState[] {
    const waiting = [...this.waiting.values()]
      .filter((w) => !this.running.has(w.folder.agentId)) // its first sync is under way
      .map((w) => this.stateOfWaiting(w));
    return [...[...this.running.values()].map((r) => this.stateOf(r)), ...waiting];
  }

  get(agentId: string): SyncFolderState | undefined {
    const running = this.running.get(agentId);
    if (running) return this.stateOf(running);
    const waiting = this.waiting.get(agentId);
    return waiting && this.stateOfWaiting(waiting);
  }

  /** Syncs `root` with the agent (replacing any earlier folder of that agent) and remembers the choice. */
  async setFolder(agentId: string, root: string): Promise<SyncFolderState> {
    await this.stopFolder(agentId);
    const folders = (await readFolderChoices(this.foldersFile)).filter((f) => f.agentId !== agentId);
    let state: SyncFolderState;
    try {
      state = await this.startFolder({ agentId, root }, true);
    } catch (error) {
      if (!(error instanceof FolderBusyError)) throw error;
      // Another AgentDesk process syncs it: remembered, shown as held, and taken over when that one stops.
      state = this.wait({ folder: { agentId, root }, status: this.pendingStatus(root), tries: 0 }, error);
    }
    folders.push({ agentId, root, ...(state.agentName ? { name: state.agentName } : {}) });
    await writeFolderChoices(this.foldersFile, folders);
    return state;
  }

  /** Stops syncing an agent; both sides keep their files. */
  async removeFolder(agentId: string): Promise<void> {
    await this.stopFolder(agentId);
    await writeFolderChoices(
      this.foldersFile,
      (await readFolderChoices(this.foldersFile)).filter((f) => f.agentId !== agentId),
    );
  }

  /** Syncs now; a folder that could not start tries to start again. */
  async syncNow(agentId: string): Promise<SyncFolderState | undefined> {
    await this.starting.get(agentId);
    if (!this.running.has(agentId) && this.waiting.has(agentId)) return this.retry(agentId);
    await this.engine(agentId).syncNow();
    return this.get(agentId);
  }
  async pause(agentId: string) {
    (await this.ready(agentId)).pause();
  }
  async resume(agentId: string) {
    return (await this.ready(agentId)).resume();
  }
  async confirmDeletes(agentId: string) {
    return (await this.ready(agentId)).confirmDeletes();
  }
  /** Instead of confirming held deletions of the agent's files, brings the files back into the folder. */
  async bringBackDeleted(agentId: string) {
    const engine = await this.ready(agentId);
    if (engine.current.pendingDeletes?.side !== 'remote')
      throw new Error('No deletions are waiting for you.');
    await this.running.get(agentId)!.synced.bringBackMissing();
    return engine.syncNow();
  }
  async resolveConflict(agentId: string, key: string, choice: ConflictChoice) {
    return (await this.ready(agentId)).resolveConflict(key, choice);
  }

  /** The versions the sync kept for the agent's folder (of one path, or all), newest first. */
  versions(agentId: string, path?: string) {
    return this.withHistory(agentId, (history) => history.list(path));
  }
  async restoreVersion(agentId: string, id: number) {
    return (await this.ready(agentId)).restoreVersion(id);
  }

  /** How much the folder's version history holds (each content once) and its size cap. */
  historyUse(agentId: string): HistoryUse {
    return this.withHistory(agentId, historyUse);
  }

  /** Sets the history's size cap (shared with the CLI); over it the oldest versions go at once. */
  setHistoryCap(agentId: string, bytes: number): HistoryUse {
    this.withHistory(agentId, (history) => history.setCapBytes(bytes));
    return this.historyUse(agentId);
  }

  /** A turn ended, or a tool touched a file: look at the agent's side again. */
  remoteChanged(agentId: string): void {
    this.running.get(agentId)?.engine.remoteChanged();
  }

  /** A turn of the agent runs: its folder looks at the agent's side at the full pace. */
  agentActive(agentId: string): void {
    this.running.get(agentId)?.engine.agentActive();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const agentId of new Set([...this.running.keys(), ...this.waiting.keys()])) {
      await this.stopFolder(agentId);
    }
  }

  /** The agent's engine once a start under way has finished. */
  private async ready(agentId: string): Promise<SyncEngine> {
    await this.starting.get(agentId);
    return this.engine(agentId);
  }

  private engine(agentId: string): SyncEngine {
    const running = this.running.get(agentId);
    if (running) return running.engine;
    const waiting = this.waiting.get(agentId);
    if (waiting) {
      throw new Error(
        `Sync has not started for this folder yet. ${waiting.status.message ?? ''} Choose Try again, or change the folder.`,
      );
    }
    throw new Error('This agent has no sync folder. Choose one first.');
  }

  /** Runs `use` on the folder's history: the engine's own, or (while the folder waits) one opened for the call. */
  private withHistory<T>(agentId: string, use: (history: VersionHistory) => T): T {
    const waiting = this.waiting.get(agentId);
    if (this.running.has(agentId) || !waiting?.stateFile) return use(this.engine(agentId).versions);
    const history = new VersionHistory(waiting.stateFile);
    try {
      return use(history);
    } finally {
      history.close();
    }
  }

  /** Tries to start a waiting folder; on failure it waits again, with the reason in its status. */
  private retry(agentId: string): Promise<SyncFolderState | undefined> {
    const pending = this.starting.get(agentId);
    if (pending) return pending;
    const waiting = this.waiting.get(agentId);
    if (!waiting || this.closed) return Promise.resolve(this.get(agentId));
    clearTimeout(waiting.timer);
    const attempt = this.startFolder(waiting.folder).then(
      (state) => {
        this.waiting.delete(agentId);
        return state;
      },
      (error: unknown) => this.wait(waiting, error),
    );
    const settled = attempt.finally(() => this.starting.delete(agentId));
    this.starting.set(agentId, settled);
    return settled;
  }

  private wait(previous: Waiting, error: unknown): SyncFolderState {
    const { folder } = previous;
    const failure = describeStartFailure(error, folder.root);
    const tries = failure.reason === 'held' ? 0 : previous.tries + 1;
    const delay = retryDelay(failure, tries, this.options.retryMs ?? 10_000);
    const stateFile = (error as StartError).stateFile ?? previous.stateFile;
    const waiting: Waiting = {
      folder,
      tries,
      ...(stateFile ? { stateFile } : {}),
      status: {
        ...this.pendingStatus(folder.root),
        state: 'error',
        message: failure.message,
        notStarted: { reason: failure.reason, nextTryAt: Date.now() + delay },
      },
    };
    if (!this.closed) {
      waiting.timer = setTimeout(() => void this.tick(folder.agentId), delay);
      waiting.timer.unref();
    }
    this.waiting.set(folder.agentId, waiting);
    const state = this.stateOfWaiting(waiting);
    this.options.onStatus?.(state);
    return state;
  }

  /** The timer's try: while the same process still holds the folder, only the time of the next look moves. */
  private async tick(agentId: string): Promise<void> {
    const waiting = this.waiting.get(agentId);
    const owner = waiting?.stateFile && folderOwner(waiting.stateFile);
    if (!waiting || !owner || waiting.status.notStarted?.reason !== 'held') {
      await this.retry(agentId);
      return;
    }
    this.wait(waiting, new FolderBusyError(owner, waiting.folder.root));
  }

  private startFolder(folder: SyncFolder, chosen = false): Promise<SyncFolderState> {
    return startSyncedFolder(
      this.options,
      folder,
      {
        onStatus: (running) => this.options.onStatus?.(this.stateOf(running)),
        // Listed from the first sync on, so its progress shows and pause works during it.
        opened: (running) => this.running.set(folder.agentId, running),
        failed: (running) => {
          if (this.running.get(folder.agentId) === running) this.running.delete(folder.agentId);
        },
      },
      chosen,
    ).then((running) => this.stateOf(running));
  }

  private async stopFolder(agentId: string): Promise<void> {
    await this.starting.get(agentId);
    const waiting = this.waiting.get(agentId);
    if (waiting) {
      clearTimeout(waiting.timer);
      this.waiting.delete(agentId);
      this.options.onStatus?.({
        ...this.stateOfWaiting(waiting),
        status: this.pendingStatus(waiting.folder.root, 'stopped'),
      });
    }
    const running = this.running.get(agentId);
    if (!running) return;
    this.running.delete(agentId);
    await running.synced.close();
  }

  private pendingStatus(root: string, state: SyncStatus['state'] = 'scanning'): SyncStatus {
    return { state, root, done: 0, total: 0, conflicts: [], skipped: [], failures: [] };
  }

  private stateOf(running: RunningFolder): SyncFolderState {
    const { agentId, root } = running.folder;
    return { agentId, root, agentName: running.agentName, status: running.engine.current };
  }

  private stateOfWaiting(waiting: Waiting): SyncFolderState {
    const { agentId, root, name } = waiting.folder;
    return { agentId, root, agentName: name ?? '', status: waiting.status };
  }
}
