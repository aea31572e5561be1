/**
 * One owner per synced folder: a lock file beside the folder's state (in the app's data folder)
 * names the process that syncs it. A second process (the app and the CLI, or two CLIs) is told
 * plainly who holds the folder instead of running beside it. A lock whose process is gone
 * (a crash, a kill) is stale and taken over.
 */
import { hostname } from 'node:os';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface LockOwner {
  pid: number;
  host: string;
  /** Who it is, in words: "the AgentDesk app" or "agentdesk sync (command line)". */
  who: string;
  since: number;
}

export class FolderBusyError extends Error {
  constructor(
    readonly owner: LockOwner,
    root: string,
  ) {
    super(
      `${root} is already being synced by ${owner.who} (process ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}, since ${new Date(owner.since).toLocaleString()}). Stop that one first, or use it to sync.`,
    );
    this.name = 'FolderBusyError';
  }
}

export interface FolderLock {
  release(): void;
}

/** Takes the folder's lock for this process; throws FolderBusyError when a live process holds it. */
export function lockFolder(stateFile: string, root: string, who: string): FolderLock {
  const file = `${stateFile}.lock`;
  mkdirSync(dirname(file), { recursive: true });
  const me: LockOwner = { pid: process.pid, host: hostname(), who, since: Date.now() };
  // The lock appears whole or not at all: written beside it, then linked to its name (a link fails when the
  // name exists). A lock made empty and written after could be read empty by a second process starting at
  // the same moment, taken for stale and removed, and both would sync the folder.
  const mine = `${file}.${process.pid}.new`;
  writeFileSync(mine, JSON.stringify(me), { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      try {
        linkSync(mine, file);
        return ownLock(file, me);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = readOwner(file);
      // Released between the two looks: the name is free again. (Removing it now could remove a lock
      // another process has just made.)
      if (owner === 'gone') continue;
      if (owner && isAlive(owner)) throw new FolderBusyError(owner, root);
      // Stale (its process is gone) or unreadable: taken over.
      try {
        unlinkSync(file);
      } catch {
        // another process took it over first; the next attempt sees its lock
      }
    }
  } finally {
    unlinkSync(mine);
  }
  throw new Error(`Could not take the lock of ${root}; try again.`);
}

function ownLock(file: string, me: LockOwner): FolderLock {
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      const owner = readOwner(file);
      if (owner !== 'gone' && owner?.pid === me.pid) unlinkSync(file);
    },
  };
}

/** Who holds the folder now, if anyone (for commands that only read the state). */
export function folderOwner(stateFile: string): LockOwner | undefined {
  const owner = readOwner(`${stateFile}.lock`);
  return owner && owner !== 'gone' && isAlive(owner) ? owner : undefined;
}

/** The lock's owner; undefined for a lock that cannot be read, 'gone' for none. */
function readOwner(file: string): LockOwner | 'gone' | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return undefined;
    return {
      pid: parsed.pid,
      host: parsed.host,
      who: typeof parsed.who === 'string' ? parsed.who : 'another process',
      since: typeof parsed.since === 'number' ? parsed.since : 0,
    };
  } catch {
    return undefined;
  }
}

/** A process on another machine (a shared data folder) cannot be checked: it counts as alive. */
function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
