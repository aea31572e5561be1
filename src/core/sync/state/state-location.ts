/**
 * Where a synced folder's state (bases, conflicts, its lock and its version history) lives: one
 * file per agent and folder in the app's data folder, never in the synced folder. The app and
 * the CLI compute the same place, so they share the folder's state (a conflict resolved in one
 * is resolved in both) and its lock (only one of them syncs it at a time).
 */
import { createHash } from 'node:crypto';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { readRootMarker } from './root-marker';

export function syncStateFile(dataDir: string, agentId: string, root: string): string {
  const id = createHash('sha256').update(`${agentId}\n${root}`).digest('hex').slice(0, 16);
  const safeAgent = agentId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return join(dataDir, 'sync', `${safeAgent}-${id}.db`);
}

/** Moves a state file kept under an older name to `stateFile`, with its WAL files, if it is not there yet. */
export function adoptOlderState(older: string, stateFile: string): void {
  if (older === stateFile || existsSync(stateFile) || !existsSync(older)) return;
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(older + suffix)) renameSync(older + suffix, stateFile + suffix);
  }
}

/**
 * The state file to use for `root`: the one its marker names (whoever synced it first, the app
 * or the CLI), when it is this agent's and still there; otherwise `ownDefault`.
 */
export async function sharedStateFile(root: string, agentId: string, ownDefault: string): Promise<string> {
  const marker = await readRootMarker(root);
  if (marker?.agentId === agentId && marker.state && existsSync(marker.state)) return marker.state;
  return ownDefault;
}

/**
 * A folder's state file, found the same way by the app and the CLI: this process's own name for
 * it (after adopting one kept under an `older` name), unless the folder's marker names another.
 */
export async function locateFolderState(
  dataDir: string,
  agentId: string,
  root: string,
  older: string[] = [],
): Promise<string> {
  const ownFile = syncStateFile(dataDir, agentId, root);
  for (const file of older) adoptOlderState(file, ownFile);
  return sharedStateFile(root, agentId, ownFile);
}
