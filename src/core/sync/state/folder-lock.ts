/**
 * One owner per synced folder: a lock file beside the folder's state (in the app's data folder)
 * names the process that syncs it. A second process (the app and the CLI, or two CLIs) is told
 * plainly who holds the folder instead of running beside it. A lock whose process is gone
 * (a crash, a kill) is stale and taken over.
 */
import { hostname } from 'node:os';
import { mkdirSync, openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
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
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          if (readOwner(file)?.pid === me.pid) unlinkSync(file);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readOwner(file);
    if (owner && isAlive(owner)) throw new FolderBusyError(owner, root);
    // Stale (its process is gone) or unreadable: taken over.
    try {
      unlinkSync(file);
    } catch {
      // another process took it over first; the next attempt sees its lock
    }
  }
  throw new Error(`Could not take the lock of ${root}; try again.`);
}

/** Who holds the folder now, if anyone (for commands that only read the state). */
export function folderOwner(stateFile: string): LockOwner | undefined {
  const owner = readOwner(`${stateFile}.lock`);
  return owner && isAlive(owner) ? owner : undefined;
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
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
