import type {
  SyncFolderStatus,
  SyncHistoryUse,
  SyncSkipReason,
  SyncStatus,
  SyncVersion,
} from '../../../shared/bridge';
import { massDeleteWords } from '../../../shared/words/mass-delete-words';
import { serverUnreachableWords } from '../../../shared/words/unreachable-words';
import { relativeTime } from '../../ui/relative-time';

/** What the sync panel says about a folder's state, in plain words. Pure: no DOM, no bridge. */

const UNREACHABLE_WORDS = "Can't reach the agent's server";

export function stateWords(status: SyncStatus): string {
  // Cycles keep trying while the server is away: one steady word, not scanning and error in turn.
  if (status.unreachable && status.state !== 'paused' && status.state !== 'stopped') return UNREACHABLE_WORDS;
  // Paused until there is space (its message says which disk); the tries again are no news.
  if (status.diskFull && status.state !== 'paused' && status.state !== 'stopped')
    return 'Paused: the disk is full';
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
      if (status.notStarted?.reason === 'held') return 'Synced by another AgentDesk process';
      return status.notStarted ? 'Sync could not start' : 'Sync stopped on a problem';
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
  unchecked: "Held: this server can't show whether the agent changed it since the last sync",
};

export function skipWords(reason: string): string {
  return skipReasonWords[reason as SyncSkipReason] ?? 'Left out of sync';
}

const MB = 1024 * 1024;

/** A size in plain units: "340 B", "1.2 kB", "12 MB", "1.5 GB" (1 kB = 1024 B, as the CLI counts). */
export function sizeWords(bytes: number): string {
  const short = (n: number) => (n < 10 ? String(Number(n.toFixed(1))) : String(Math.round(n)));
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MB) return `${(bytes / 1024).toFixed(1)} kB`;
  if (bytes < 1024 * MB) return `${short(bytes / MB)} MB`;
  return `${short(bytes / 1024 / MB)} GB`;
}

/** "Using 12 MB of 1 GB" for the version history. */
export function historyUseWords(use: SyncHistoryUse): string {
  return `Using ${sizeWords(use.usedBytes)} of ${sizeWords(use.capBytes)}`;
}

/** The history cap as typed by the person, in whole MB (1 MB to 1 TB): bytes, or a sentence saying what is wrong. */
export function parseHistoryCap(text: string): { bytes: number } | { error: string } {
  const typed = text.trim().replace(/\s*mb$/i, '');
  const megabytes = /^\d+$/.test(typed) ? Number(typed) : NaN;
  if (!Number.isSafeInteger(megabytes) || megabytes < 1 || megabytes > 1024 * 1024) {
    return { error: 'Type a whole number of megabytes, from 1 to 1048576 (1 TB), for example 500.' };
  }
  return { bytes: megabytes * MB };
}

/** "yours, 2 min ago, 1.2 kB" for a kept version. */
export function versionWords(version: SyncVersion, now: number): string {
  const whose = version.source === 'remote' ? "the agent's" : 'yours';
  return `${whose}, ${relativeTime(new Date(version.at).toISOString(), now)}, ${sizeWords(version.size)}`;
}

/** What the person can do about a folder this app could not start. */
export function notStartedHint(notStarted: NonNullable<SyncStatus['notStarted']>): string {
  return notStarted.reason === 'held'
    ? 'To sync it here now, stop the other one (Ctrl-C in its terminal, or quit that window), then choose Try again.'
    : 'AgentDesk tries again by itself every little while. Once the cause is fixed, choose Try again.';
}

export function lastSyncWords(lastSyncAt: number | undefined, now: number): string {
  if (!lastSyncAt) return 'Not synced yet';
  return `Last synced ${relativeTime(new Date(lastSyncAt).toISOString(), now)}`;
}

export function pendingDeleteWords(pending: NonNullable<SyncStatus['pendingDeletes']>): string {
  return `${massDeleteWords(pending)} Nothing ${pending.recent ? 'more ' : ''}is deleted until you confirm.`;
}

/** The problem lines of a status in `error` (one per failed file). */
export function problemLines(status: SyncStatus): string[] {
  if (status.state !== 'error' || status.unreachable) return [];
  const lines = (status.message ?? '').split('\n').filter((line) => line.trim() !== '');
  return lines.length > 0 ? lines : ['Sync could not finish. It will try again.'];
}

/** While the server cannot be reached: what happens to the person's changes. */
export function unreachableWords(unreachable: NonNullable<SyncStatus['unreachable']>): string {
  return serverUnreachableWords(unreachable.server);
}

/** A short line for the sidebar: how the agent's sync folder is doing. */
export function summaryWords(folder: SyncFolderStatus | null | undefined, online = true): string {
  if (folder === undefined) return '';
  if (folder === null) return 'Not set up';
  const { status } = folder;
  // The app knows the server is gone before the folder's next look: never "Up to date" meanwhile.
  if (!online && status.state !== 'paused' && status.state !== 'stopped') return UNREACHABLE_WORDS;
  if (status.conflicts.length > 0) {
    return status.conflicts.length === 1
      ? '1 conflict to resolve'
      : `${status.conflicts.length} conflicts to resolve`;
  }
  if (status.pendingDeletes) return 'Needs your confirmation';
  return stateWords(status);
}
