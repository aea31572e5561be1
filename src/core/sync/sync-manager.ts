/**
 * Every synced folder of the signed-in person, for the desktop host: which
 * folder belongs to which agent (remembered in the app's data folder), one
 * SyncEngine each, and the remote hints from conversations (a turn's `done`,
 * a `tool` event naming a path) routed to the right engine.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import trash from 'trash';
import type { ApiClient } from '../api/api-client';
import { remoteForAgent } from './remote-for-agent';
import { SyncEngine, type ConflictChoice, type SyncStatus } from './sync-engine';
import { lockFolder, type FolderLock } from './folder-lock';
import { adoptOlderState, syncStateFile } from './state-location';
import { SyncStateStore } from './sync-state-store';

export interface SyncFolder {
  agentId: string;
  root: string;
}

export interface SyncFolderState extends SyncFolder {
  agentName: string;
  status: SyncStatus;
}

export interface SyncManagerOptions {
  /** The app's data folder: folder choices and sync state live here, never in the synced folder. */
  dataDir: string;
  api: ApiClient;
  onStatus?: (state: SyncFolderState) => void;
  trash?: (absolutePath: string) => Promise<void>;
  /** How often to re-list the agent's files while the app runs. */
  remoteIntervalMs?: number;
  /** How often to look (a conditional listing) whether the agent wrote something. */
  remotePollMs?: number;
  debounceMs?: number;
}

interface Running {
  folder: SyncFolder;
  agentName: string;
  engine: SyncEngine;
  store: SyncStateStore;
  lock: FolderLock;
}

/** `~/AgentDesk/<agent name>`, with characters no disk accepts taken out. */
export function defaultSyncFolder(agentName: string, home = homedir()): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
  const safe = agentName.replace(/[<>:"/\\|?*\u0000-\u001f]/g, '-').trim() || 'agent';
  return join(home, 'AgentDesk', safe);
}

export class SyncManager {
  private readonly running = new Map<string, Running>();
  private readonly foldersFile: string;

  constructor(private readonly options: SyncManagerOptions) {
    this.foldersFile = join(options.dataDir, 'sync', 'folders.json');
  }

  /** Starts every remembered folder. */
  async start(): Promise<void> {
    for (const folder of await this.readFolders()) {
      await this.startFolder(folder).catch(() => undefined);
    }
  }

  list(): SyncFolderState[] {
    return [...this.running.values()].map((r) => this.stateOf(r));
  }

  get(agentId: string): SyncFolderState | undefined {
    const running = this.running.get(agentId);
    return running && this.stateOf(running);
  }

  /** Syncs `root` with the agent (replacing any earlier folder of that agent) and remembers the choice. */
  async setFolder(agentId: string, root: string): Promise<SyncFolderState> {
    await this.stopFolder(agentId);
    const folders = (await this.readFolders()).filter((f) => f.agentId !== agentId);
    folders.push({ agentId, root });
    await this.writeFolders(folders);
    return this.startFolder({ agentId, root });
  }

  /** Stops syncing an agent; both sides keep their files. */
  async removeFolder(agentId: string): Promise<void> {
    await this.stopFolder(agentId);
    await this.writeFolders((await this.readFolders()).filter((f) => f.agentId !== agentId));
  }

  syncNow(agentId: string) {
    return this.engine(agentId).syncNow();
  }
  pause(agentId: string) {
    this.engine(agentId).pause();
    return this.engine(agentId).current;
  }
  resume(agentId: string) {
    return this.engine(agentId).resume();
  }
  confirmDeletes(agentId: string) {
    return this.engine(agentId).confirmDeletes();
  }
  resolveConflict(agentId: string, key: string, choice: ConflictChoice) {
    return this.engine(agentId).resolveConflict(key, choice);
  }

  /** The versions the sync kept for the agent's folder (of one path, or all), newest first. */
  versions(agentId: string, path?: string) {
    return this.engine(agentId).versions.list(path);
  }
  restoreVersion(agentId: string, id: number) {
    return this.engine(agentId).restoreVersion(id);
  }

  /** A turn ended, or a tool touched a file: look at the agent's side again. */
  remoteChanged(agentId: string): void {
    this.running.get(agentId)?.engine.remoteChanged();
  }

  async close(): Promise<void> {
    for (const agentId of [...this.running.keys()]) await this.stopFolder(agentId);
  }

  private engine(agentId: string): SyncEngine {
    const running = this.running.get(agentId);
    if (!running) throw new Error('This agent has no sync folder. Choose one first.');
    return running.engine;
  }

  private async startFolder(folder: SyncFolder): Promise<SyncFolderState> {
    const { remote, name } = await remoteForAgent(this.options.api, folder.agentId, folder.root);
    const stateFile = syncStateFile(this.options.dataDir, folder.agentId, folder.root);
    adoptOlderState(
      join(this.options.dataDir, 'sync', `${encodeURIComponent(folder.agentId)}.db`),
      stateFile,
    );
    // One owner per folder: a CLI already syncing it is named in the folder's error status.
    const lock = lockFolder(stateFile, folder.root, 'the AgentDesk app');
    const store = new SyncStateStore(stateFile);
    const running: Running = {
      folder,
      agentName: name,
      store,
      lock,
      engine: undefined as unknown as SyncEngine,
    };
    running.engine = new SyncEngine({
      root: folder.root,
      agentId: folder.agentId,
      remote,
      store,
      trash: this.options.trash ?? ((path) => trash(path, { glob: false })),
      watch: true,
      debounceMs: this.options.debounceMs ?? 50,
      remoteIntervalMs: this.options.remoteIntervalMs ?? 30_000,
      // Turn events are hints where the account can read conversations; the cheap poll covers the rest.
      remotePollMs: this.options.remotePollMs ?? 2_000,
      onStatus: () => this.options.onStatus?.(this.stateOf(running)),
    });
    this.running.set(folder.agentId, running);
    await running.engine.start();
    return this.stateOf(running);
  }

  private async stopFolder(agentId: string): Promise<void> {
    const running = this.running.get(agentId);
    if (!running) return;
    this.running.delete(agentId);
    await running.engine.close();
    running.store.close();
    running.lock.release();
  }

  private stateOf(running: Running): SyncFolderState {
    return { ...running.folder, agentName: running.agentName, status: running.engine.current };
  }

  private async readFolders(): Promise<SyncFolder[]> {
    const text = await readFile(this.foldersFile, 'utf8').catch(() => '[]');
    try {
      const parsed = JSON.parse(text) as unknown;
      return Array.isArray(parsed)
        ? parsed.filter((f): f is SyncFolder => typeof f?.agentId === 'string' && typeof f?.root === 'string')
        : [];
    } catch {
      return [];
    }
  }

  private async writeFolders(folders: SyncFolder[]): Promise<void> {
    await mkdir(dirname(this.foldersFile), { recursive: true });
    const temp = `${this.foldersFile}.tmp`;
    await writeFile(temp, JSON.stringify(folders, null, 2) + '\n');
    await rename(temp, this.foldersFile);
  }
}
