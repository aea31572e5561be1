/**
 * Why a remembered folder could not start syncing in this process, in plain words: another
 * AgentDesk process holds it (named), or another reason (the folder, the disk, the agent).
 * The manager shows it as the folder's error status and tries again later; never silence.
 */
import { hostname } from 'node:os';
import { FolderBusyError, type LockOwner } from '../state/folder-lock';
import { RemoteError } from '../plan/remote-side';

export interface StartFailure {
  reason: 'held' | 'failed';
  message: string;
}

export function heldWords(owner: LockOwner): string {
  const where = owner.host === hostname() ? '' : ` on ${owner.host}`;
  const since = owner.since ? `, since ${new Date(owner.since).toLocaleString()}` : '';
  return (
    `Another AgentDesk process is syncing this folder: ${owner.who}, process ${owner.pid}${where}${since}. ` +
    'This app takes the folder over by itself once that one stops.'
  );
}

export function describeStartFailure(error: unknown, root: string): StartFailure {
  if (error instanceof FolderBusyError) return { reason: 'held', message: heldWords(error.owner) };
  if (error instanceof RemoteError) {
    return { reason: 'failed', message: `Sync could not reach the agent. ${error.message}` };
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const path = (error as NodeJS.ErrnoException | undefined)?.path ?? root;
  const words: Record<string, string> = {
    ENOENT: `${path} cannot be found. Put the folder back, or choose it again.`,
    ENOTDIR: `${path} is not a folder. Choose a folder to sync.`,
    EACCES: `AgentDesk is not allowed to read or write ${path}. Check the folder's permissions.`,
    EPERM: `AgentDesk is not allowed to read or write ${path}. Check the folder's permissions.`,
    ENOSPC: 'The disk is full, so sync cannot start. Free some space.',
    EROFS: `${path} is on a read-only disk, so sync cannot write to it.`,
  };
  const plain = (code && words[code]) ?? (error instanceof Error ? error.message : String(error));
  return { reason: 'failed', message: `Sync could not start. ${plain}` };
}

const maxRetryMs = 5 * 60_000;

/** A held folder is looked at again every `baseMs`; any other failure backs off, up to 5 min. */
export function retryDelay(failure: StartFailure, tries: number, baseMs: number): number {
  return failure.reason === 'held' ? baseMs : Math.min(baseMs * 2 ** (tries - 1), maxRetryMs);
}
