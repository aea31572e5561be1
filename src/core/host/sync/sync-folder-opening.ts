import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DeskResult, SyncOpenTarget } from '../../../shared/bridge';
import { fail } from '../plumbing/call-results';

/** What sync needs of the OS; each program provides what it can. */
export interface SyncOs {
  /** Opens a folder in the file manager, or a file in its default app. Throws with a plain message on failure. */
  openPath?(path: string): void | Promise<void>;
  /** The system's folder picker: a path, or undefined when cancelled. */
  pickFolder?(options: { title: string; defaultPath?: string }): Promise<string | undefined>;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Opens a synced folder in the file manager, or its agent's instructions.md in the default editor. */
export async function openSyncedFolder(
  os: SyncOs,
  root: string,
  target: SyncOpenTarget,
): Promise<DeskResult<void>> {
  if (!os.openPath) return fail('not_available', 'This window cannot open folders.');
  let path = root;
  if (target === 'editor') {
    // The agent's instructions are the file people edit most; the folder when there is none yet.
    const instructions = join(root, 'instructions.md');
    const isFile = await stat(instructions).then(
      (s) => s.isFile(),
      () => false,
    );
    if (isFile) path = instructions;
  }
  try {
    await os.openPath(path);
    return { ok: true, value: undefined };
  } catch (error) {
    return fail('open_failed', `Could not open ${path}: ${messageOf(error)}`);
  }
}

/** The system's folder picker: the chosen path, or null when cancelled. */
export async function pickSyncFolder(os: SyncOs, defaultPath: unknown): Promise<DeskResult<string | null>> {
  if (!os.pickFolder) {
    return fail('not_available', "This window has no folder picker. Type the folder's path instead.");
  }
  const picked = await os.pickFolder({
    title: 'Choose a folder to sync',
    ...(typeof defaultPath === 'string' && defaultPath ? { defaultPath } : {}),
  });
  return { ok: true, value: picked ?? null };
}
