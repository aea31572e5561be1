import type { SyncFolderStatus, SyncSkipReason, SyncStatus, SyncVersion } from '../../../shared/bridge';
import { relativeTime } from '../../ui/relative-time';

/** What the sync panel says about a folder's state, in plain words. Pure: no DOM, no bridge. */

export function stateWords(status: SyncStatus): string {
  switch (status.state) {
    case 'idle': {
      if (!status.lastSyncAt) return 'Waiting for the first sync';
      const open = status.conflicts.length;
      if (open === 0) return 'Up to date';
      return `Up to date except ${open} ${open === 1 ? 'conflict' : 'conflicts'}`;
    }
    case 'scanning':
      return 'Looking for changes…';
    case 'syncing':
      return status.total > 0
        ? `Syncing ${Math.min(status.done, status.total)} of ${status.total}`
        : 'Syncing…';
    case 'paused':
      return status.pendingDeletes ? 'Waiting for you to confirm deletions' : 'Paused';
    case 'error':
      return 'Sync stopped on a problem';
    case 'stopped':
      return 'Stopped';
  }
}

/** The progress bar: a fraction while files move, `indeterminate` while looking, nothing otherwise. */
export function progressOf(status: SyncStatus): { value: number; max: number } | 'indeterminate' | null {
  if (status.state === 'scanning') return 'indeterminate';
  if (status.state !== 'syncing') return null;
  if (status.total <= 0) return 'indeterminate';
  return { value: Math.min(status.done, status.total), max: status.total };
}

/** The person paused sync (as opposed to a mass deletion waiting for confirmation). */
export function isPausedByPerson(status: SyncStatus): boolean {
  return status.state === 'paused' && !status.pendingDeletes;
}

export const skipReasonWords: Record<SyncSkipReason, string> = {
  'too-large': 'Too large to sync (over 10 MB, or 25 MB in a skill)',
  symlink: 'A link to somewhere else (symlink): never followed',
  'invalid-name': 'A name the other side cannot take',
  'upload-only': "This server can't send it back, so it only uploads",
  'name-clash': 'Another file has the same name except for upper/lower case',
  empty: 'Empty: the agent cannot store an empty file, so it waits until it has content',
  'outside-layout':
    'Not a place the agent has: only instructions.md, mcp.json, skills/<name>/ and work/ (knowledge/ for bundle agents) are synced',
  'looks-like-copy':
    'Named like a conflict copy the sync did not make, so it is left out; rename it to sync it',
};

export function skipWords(reason: string): string {
  return skipReasonWords[reason as SyncSkipReason] ?? 'Left out of sync';
}

/** "yours, 2 min ago, 1.2 kB" for a kept version. */
export function versionWords(version: SyncVersion, now: number): string {
  const whose = version.source === 'remote' ? "the agent's" : 'yours';
  const size =
    version.size < 1024
      ? `${version.size} B`
      : version.size < 1024 * 1024
        ? `${(version.size / 1024).toFixed(1)} kB`
        : `${(version.size / 1024 / 1024).toFixed(1)} MB`;
  return `${whose}, ${relativeTime(new Date(version.at).toISOString(), now)}, ${size}`;
}

export function lastSyncWords(lastSyncAt: number | undefined, now: number): string {
  if (!lastSyncAt) return 'Not synced yet';
  return `Last synced ${relativeTime(new Date(lastSyncAt).toISOString(), now)}`;
}

export function pendingDeleteWords(pending: NonNullable<SyncStatus['pendingDeletes']>): string {
  const files = pending.deletes === 1 ? 'file' : 'files';
  const where = pending.side === 'remote' ? "from the agent's files" : 'from this folder';
  return `This sync would delete ${pending.deletes} of ${pending.total} ${files} ${where}. Nothing is deleted until you confirm.`;
}

/** The problem lines of a status in `error` (one per failed file). */
export function problemLines(status: SyncStatus): string[] {
  if (status.state !== 'error') return [];
  const lines = (status.message ?? '').split('\n').filter((line) => line.trim() !== '');
  return lines.length > 0 ? lines : ['Sync could not finish. It will try again.'];
}

/** A short line for the sidebar: how the agent's sync folder is doing. */
export function summaryWords(folder: SyncFolderStatus | null | undefined): string {
  if (folder === undefined) return '';
  if (folder === null) return 'Not set up';
  const { status } = folder;
  if (status.conflicts.length > 0) {
    return status.conflicts.length === 1
      ? '1 conflict to resolve'
      : `${status.conflicts.length} conflicts to resolve`;
  }
  if (status.pendingDeletes) return 'Needs your confirmation';
  return stateWords(status);
}
