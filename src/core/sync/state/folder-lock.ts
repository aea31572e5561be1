/**
 * One owner per synced folder: a lock beside the folder's state (in the app's data folder) names the process
 * that syncs it (common/owner-lock.ts). A second process is told plainly who holds the folder.
 */
import {
  lockOwner,
  OwnerBusyError,
  processWords,
  takeOwnerLock,
  type LockOwner,
} from '../../common/owner-lock';

export type { LockOwner } from '../../common/owner-lock';

export class FolderBusyError extends Error {
  constructor(
    readonly owner: LockOwner,
    root: string,
  ) {
    super(
      `${root} is already being synced by ${owner.who} (${processWords(owner)}, since ${new Date(owner.since).toLocaleString()}). Stop that one first, or use it to sync.`,
    );
    this.name = 'FolderBusyError';
  }
}

export interface FolderLock {
  release(): void;
}

/** Takes the folder's lock for this process; throws FolderBusyError when a live process holds it. */
export function lockFolder(stateFile: string, root: string, who: string): FolderLock {
  try {
    return takeOwnerLock(`${stateFile}.lock`, who);
  } catch (error) {
    if (error instanceof OwnerBusyError) throw new FolderBusyError(error.owner, root);
    throw error;
  }
}

/** Who holds the folder now, if anyone (for commands that only read the state). */
export function folderOwner(stateFile: string): LockOwner | undefined {
  return lockOwner(`${stateFile}.lock`);
}
