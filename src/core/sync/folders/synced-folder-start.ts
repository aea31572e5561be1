/**
 * Starts syncing one folder in this process: finds its shared state (the one its marker names),
 * takes its lock, reaches the agent, opens the state and starts the engine. A start that fails at
 * any step gives back what it took (engine, state, lock) and throws, carrying the state file it
 * found so the folder's history can still be read.
 */
import { join } from 'node:path';
import type { ApiClient } from '../../api/api-client';
import type { SyncEngine } from '../engine/sync-engine';
import { remoteForAgent } from '../remote/remote-for-agent';
import { readRootMarker } from '../state/root-marker';
import { locateFolderState } from '../state/state-location';
import type { SyncFolder } from './folder-choices';
import { SyncedFolder } from './synced-folder';

export interface RunningFolder {
  folder: SyncFolder;
  agentName: string;
  engine: SyncEngine;
  synced: SyncedFolder;
}

export interface FolderStartOptions {
  /** The app's data folder: folder choices and sync state live here, never in the synced folder. */
  dataDir: string;
  api: ApiClient;
  trash?: (absolutePath: string) => Promise<void>;
  /** How often to re-list the agent's files while the app runs. */
  remoteIntervalMs?: number;
  /** How often to look (a conditional listing) whether the agent wrote something. */
  remotePollMs?: number;
  debounceMs?: number;
}

export interface FolderStartHooks {
  onStatus(running: RunningFolder): void;
  /** The engine exists and its first sync begins. */
  opened(running: RunningFolder): void;
  /** The first sync threw: the engine is being closed. */
  failed(running: RunningFolder): void;
}

/** A start failure, with the folder's state file when it was found. */
export type StartError = Error & { stateFile?: string };

/**
 * `chosen`: the person has just chosen this folder. A folder without its marker (deleted, or the
 * marker removed) then starts as a first sync: its old base is forgotten, so nothing on either side
 * is read as deleted (files that differ become conflicts). Remembered folders keep the marker check.
 */
export async function startSyncedFolder(
  options: FolderStartOptions,
  folder: SyncFolder,
  hooks: FolderStartHooks,
  chosen = false,
): Promise<RunningFolder> {
  const { dataDir } = options;
  // The state the folder's marker names (the CLI's, if it synced the folder first) is shared, with its lock.
  const stateFile = await locateFolderState(dataDir, folder.agentId, folder.root, [
    join(dataDir, 'sync', `${encodeURIComponent(folder.agentId)}.db`),
  ]);
  const failure = (error: unknown): StartError =>
    Object.assign(error instanceof Error ? error : new Error(String(error)), { stateFile });
  let synced: SyncedFolder;
  try {
    // One owner per folder: a CLI already syncing it is named in the folder's error status.
    synced = SyncedFolder.claim(
      { root: folder.root, agentId: folder.agentId, stateFile },
      'the AgentDesk app',
    );
  } catch (error) {
    throw failure(error);
  }
  let running: RunningFolder | undefined;
  try {
    const { remote, name } = await remoteForAgent(options.api, folder.agentId, folder.root);
    const fresh = chosen && (await readRootMarker(folder.root))?.agentId !== folder.agentId;
    const engine = synced.open(
      remote,
      {
        ...(options.trash ? { trash: options.trash } : {}),
        watch: true,
        debounceMs: options.debounceMs ?? 50,
        remoteIntervalMs: options.remoteIntervalMs ?? 30_000,
        // Turn events are hints where the account can read conversations; the cheap poll covers the rest.
        remotePollMs: options.remotePollMs ?? 2_000,
        onStatus: () => running && hooks.onStatus(running),
      },
      fresh,
    );
    running = { folder, agentName: name, engine, synced };
    hooks.opened(running);
    await engine.start();
    return running;
  } catch (error) {
    const opened = running;
    running = undefined; // its closing is not news: the failure is
    if (opened) hooks.failed(opened);
    await synced.close().catch(() => undefined);
    throw failure(error);
  }
}
