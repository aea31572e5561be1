/**
 * The `.agentdesk` marker in a sync root names the agent. A missing marker
 * means the folder was moved or deleted: sync stops rather than read that as
 * "the person deleted everything".
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rootMarkerName } from '../plan/sync-paths';

export interface RootMarker {
  agentId: string;
  /**
   * The folder's state file (in the app's data folder of whoever synced it first), so the app
   * and the CLI find the same state and the same lock, whatever their data folders.
   */
  state?: string;
}

export type MarkerCheck = { ok: true } | { ok: false; message: string };

export async function readRootMarker(root: string): Promise<RootMarker | undefined> {
  const text = await readFile(join(root, rootMarkerName), 'utf8').catch(() => undefined);
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<RootMarker>;
    if (typeof parsed.agentId !== 'string') return undefined;
    return { agentId: parsed.agentId, ...(typeof parsed.state === 'string' ? { state: parsed.state } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * Makes sure `root` is this agent's sync folder. A first sync (no base yet) may
 * create the folder and its marker; later, a missing marker stops sync.
 */
export async function ensureRootMarker(
  root: string,
  agentId: string,
  firstSync: boolean,
  stateFile?: string,
): Promise<MarkerCheck> {
  const marker = await readRootMarker(root);
  if (marker) {
    if (marker.agentId === agentId) {
      if (stateFile && !marker.state) await writeMarker(root, { agentId, state: stateFile });
      return { ok: true };
    }
    return {
      ok: false,
      message: `This folder is synced with another agent (${marker.agentId}). Choose another folder.`,
    };
  }
  if (!firstSync) {
    return {
      ok: false,
      message:
        'The sync folder or its .agentdesk marker is gone, so sync stopped and changed nothing. Choose the folder again to resume.',
    };
  }
  // A non-empty folder is fine for a first sync: its files are merged, never overwritten.
  await mkdir(root, { recursive: true });
  await writeMarker(root, { agentId, ...(stateFile ? { state: stateFile } : {}) });
  return { ok: true };
}

async function writeMarker(root: string, marker: RootMarker): Promise<void> {
  const temp = join(root, `${rootMarkerName}.${process.pid}.tmp`);
  await writeFile(temp, JSON.stringify(marker, null, 2) + '\n');
  await rename(temp, join(root, rootMarkerName));
}
