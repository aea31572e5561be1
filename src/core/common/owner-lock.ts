/**
 * One owning process for a thing on disk (a synced folder, "this computer"'s service data): a lock file
 * names the process that holds it. A second process (the app and the CLI, or two CLIs) is told who holds
 * it instead of running beside it. A lock whose process is gone (a crash, a kill) is stale and taken over.
 */
import { hostname } from 'node:os';
import {
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface LockOwner {
  pid: number;
  host: string;
  /** Who it is, in words: "the AgentDesk app" or "agentdesk sync (command line)". */
  who: string;
  since: number;
  /** Where the holder answers, once it says so (a service's address): `OwnerLock.tell`. */
  url?: string;
}

/** A live process holds the lock. */
export class OwnerBusyError extends Error {
  constructor(readonly owner: LockOwner) {
    super(`held by ${owner.who} (process ${owner.pid})`);
    this.name = 'OwnerBusyError';
  }
}

/** "process 123", and the machine when it is another one. */
export function processWords(owner: LockOwner): string {
  return `process ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}`;
}

export interface OwnerLock {
  release(): void;
  /** Adds where the holder answers to the lock, replacing it whole (readers see the old lock or the new). */
  tell(url: string): void;
}

/** Takes the lock `file` for this process; throws OwnerBusyError when a live process holds it. */
export function takeOwnerLock(file: string, who: string): OwnerLock {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const me: LockOwner = { pid: process.pid, host: hostname(), who, since: Date.now() };
  // The lock appears whole or not at all: written beside it, then linked to its name (a link fails when the
  // name exists). A lock made empty and written after could be read empty by a second process starting at
  // the same moment, taken for stale and removed, and both would sync the folder.
  const mine = `${file}.${process.pid}.new`;
  removeLeftCopies(file);
  writeFileSync(mine, JSON.stringify(me), { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      try {
        linkSync(mine, file);
        return ownLock(file, me);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const seen = readLock(file);
      // Released between the two looks: the name is free again. (Removing it now could remove a lock
      // another process has just made.)
      if (seen === 'gone') continue;
      if (seen.owner && isAlive(seen.owner)) throw new OwnerBusyError(seen.owner);
      // Stale (its process is gone) or unreadable: taken over.
      if (!removeStale(file, seen.text)) sleep(5);
    }
  } finally {
    unlinkQuietly(mine);
  }
  throw new Error(`Could not take the lock ${file}; try again.`);
}

/**
 * Removes the stale lock `seen`, one process at a time: two processes starting together after a crash would
 * otherwise both see it stale and remove it, the second removing the lock the first had just made, and both
 * would hold it. Under the takeover guard the lock is read again and removed only if it is still the
 * one seen stale. False when another process is taking it over (the caller looks again).
 */
function removeStale(file: string, seen: string): boolean {
  const guard = `${file}.takeover`;
  try {
    writeFileSync(guard, String(process.pid), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // A takeover lasts microseconds: a guard this old was left by a process killed in the middle of one.
    if (ageMs(guard) > ABANDONED_MS) unlinkQuietly(guard);
    return false;
  }
  try {
    const now = readLock(file);
    if (now !== 'gone' && now.text === seen) unlinkQuietly(file);
    return true;
  } finally {
    unlinkQuietly(guard);
  }
}

/** A lock's own copy or a takeover guard older than this was left by a process killed while making it. */
const ABANDONED_MS = 10_000;

/** Copies of a lock (`<lock>.<pid>.new`) left by processes killed between writing and linking them. */
function removeLeftCopies(file: string): void {
  const prefix = `${basename(file)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !/^\d+\.new$/.test(name.slice(prefix.length))) continue;
    const path = join(dirname(file), name);
    if (ageMs(path) > ABANDONED_MS) unlinkQuietly(path);
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** Waits without returning to the event loop: taking the lock is synchronous, and the wait is a few ms. */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function ownLock(file: string, me: LockOwner): OwnerLock {
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      const held = readLock(file);
      if (held !== 'gone' && held.owner?.pid === me.pid) unlinkQuietly(file);
    },
    tell(url) {
      if (released) return;
      const next = `${file}.${process.pid}.new`;
      writeFileSync(next, JSON.stringify({ ...me, url }), { mode: 0o600 });
      renameSync(next, file);
    },
  };
}

/** Who holds the lock `file` now, if anyone alive. */
export function lockOwner(file: string): LockOwner | undefined {
  const lock = readLock(file);
  return lock !== 'gone' && lock.owner && isAlive(lock.owner) ? lock.owner : undefined;
}

/** The lock's text and owner (undefined when it cannot be read as one), or 'gone' for none. */
function readLock(file: string): { text: string; owner: LockOwner | undefined } | 'gone' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : { text: '', owner: undefined };
  }
  return { text, owner: parseOwner(text) };
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return undefined;
    return {
      pid: parsed.pid,
      host: parsed.host,
      who: typeof parsed.who === 'string' ? parsed.who : 'another process',
      since: typeof parsed.since === 'number' ? parsed.since : 0,
      ...(typeof parsed.url === 'string' ? { url: parsed.url } : {}),
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
