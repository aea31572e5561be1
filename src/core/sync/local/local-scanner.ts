/**
 * Scans the local side of a synced folder: every file with its size and mtime,
 * hashed only when size or mtime moved since the base (and a new file only when the remote
 * holds the same path, so the planner can tell equal from conflicting). Symlinks are never
 * followed; they, over-size files and names the remote would refuse are
 * reported as skipped instead of being synced or treated as deleted.
 */
import { lstatSync, type Stats } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore from 'ignore';
import pLimit from 'p-limit';
import { hashFile } from './file-hash';
import { inBadSkillFolder } from '../plan/remote-side';
import type { BaseEntry, LocalEntry } from '../plan/sync-planner';
import type { PathRules } from '../plan/remote-screen';
import {
  ignoreFileName,
  isAlwaysIgnored,
  looksLikeConflictCopy,
  pathKey,
  sanitizeRemotePath,
} from '../plan/sync-paths';

/** Workspace files and bundle files are capped at 10 MB by the API; a skill install at 25 MB. */
export const sizeLimits = { file: 10 * 1024 * 1024, skill: 25 * 1024 * 1024 } as const;

export function sizeLimitFor(path: string): number {
  return path.startsWith('skills/') ? sizeLimits.skill : sizeLimits.file;
}

export interface LocalScan {
  entries: LocalEntry[];
  /** Folders seen, relative, so type changes (file ↔ folder) can be told apart. */
  folders: string[];
}

/** Rules that ignore nothing: asking the `ignore` package costs per path, and most folders have none. */
const noRules: PathRules = { ignores: () => false };

/** Reads the root's `.agentdeskignore` (gitignore syntax), if any. */
export async function loadIgnoreRules(root: string): Promise<PathRules> {
  const text = await readFile(join(root, ignoreFileName), 'utf8').catch(() => '');
  // Blank lines and comments are no rules (a `\#` line is one).
  const hasRules = text.split(/\r?\n/).some((line) => line.trim() !== '' && !line.startsWith('#'));
  return hasRules ? ignore().add(text) : noRules;
}

export interface ScanOptions {
  /** The root's ignore rules, when the caller loaded them already (they apply to the remote too). */
  rules?: PathRules;
  /** Keys of the copies the engine made: local-only, never synced, not even listed. */
  copies?: ReadonlySet<string>;
  /** Whether a path has a place on the remote; others are "not synced" (outside the layout). */
  accepts?: (path: string) => boolean;
  /**
   * Keys of the paths the remote listed (or their promise, so the folder is scanned while the
   * server lists). A file new to the base that the remote lacks is not hashed here: its upload
   * hashes the bytes it reads, so a first sync reads each file once.
   */
  listedRemotely?: ReadonlySet<string> | Promise<ReadonlySet<string>>;
}

export async function scanLocal(
  root: string,
  base: ReadonlyMap<string, BaseEntry>,
  options: ScanOptions = {},
): Promise<LocalScan> {
  const job = await jobFor(root, base, options);
  await walk(job, '');
  return finish(job);
}

/**
 * The named paths alone, each as a full scan would see it (the fast path): a file is inspected, a
 * folder is walked whole, and a path that is gone or ignored yields nothing.
 */
export async function scanPaths(
  root: string,
  paths: readonly string[],
  base: ReadonlyMap<string, BaseEntry>,
  options: ScanOptions = {},
): Promise<LocalScan> {
  const job = await jobFor(root, base, options);
  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    const dir = slash < 0 ? '' : path.slice(0, slash);
    const name = path.slice(slash + 1);
    const item = isLeftOut(job, dir ? `${dir}/${name}` : name)
      ? undefined
      : inspect(job, dir, name, lstatQuiet(join(root, path)));
    if (item && 'folder' in item) {
      job.scan.folders.push(item.folder);
      await walk(job, item.folder);
    } else if (item) job.scan.entries.push(item.entry);
  }
  return finish(job);
}

interface ScanJob {
  root: string;
  rules: PathRules;
  base: ReadonlyMap<string, BaseEntry>;
  scan: LocalScan;
  options: ScanOptions;
  /** Files whose size or mtime moved since their base: hashed once the walk is done. */
  changed: LocalEntry[];
  /** Files without a base: hashed only where the remote lists the same path. */
  fresh: LocalEntry[];
}

type Found = { folder: string } | { entry: LocalEntry } | undefined;

/** Names stat()ed in one go before the loop is given back: about a millisecond of blocking. */
const statSlice = 256;

async function jobFor(
  root: string,
  base: ReadonlyMap<string, BaseEntry>,
  options: ScanOptions,
): Promise<ScanJob> {
  const rules = options.rules ?? (await loadIgnoreRules(root));
  return { root, rules, base, scan: { entries: [], folders: [] }, options, changed: [], fresh: [] };
}

/**
 * Hashes what must be hashed, a few at a time (one by one, 20,000 files take seconds), and drops
 * the files that vanished before their hash: the next scan sees them as they are.
 */
async function finish(job: ScanJob): Promise<LocalScan> {
  const toHash = [...job.changed];
  if (job.fresh.length > 0) {
    const listed = await job.options.listedRemotely;
    toHash.push(...job.fresh.filter((entry) => listed?.has(pathKey(entry.path)) !== false));
  }
  if (toHash.length === 0) return job.scan;
  const limit = pLimit(16);
  const gone = new Set<LocalEntry>();
  await Promise.all(
    toHash.map((entry) =>
      limit(async () => {
        const hashed = await hashFile(join(job.root, entry.path)).catch(() => undefined);
        if (!hashed) return gone.add(entry);
        entry.sha256 = hashed.sha256;
        entry.size = hashed.size;
        if (hashed.size === 0 && job.base.get(pathKey(entry.path))?.size !== 0) entry.skip = 'empty';
      }),
    ),
  );
  if (gone.size > 0) job.scan.entries = job.scan.entries.filter((entry) => !gone.has(entry));
  return job.scan;
}

async function walk(job: ScanJob, dir: string): Promise<void> {
  const names = await readdir(join(job.root, dir)).catch((error: NodeJS.ErrnoException) => {
    // A folder that vanished mid-scan is simply not there; anything else is a real failure.
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const folders: string[] = [];
  for (let at = 0; at < names.length; at += statSlice) {
    // lstat in slices, synchronously, and no promise per file: a promise per lstat cost five times
    // the CPU of the call itself (100,000 files: seconds of a start); a slice holds the loop ~1 ms.
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const name of names.slice(at, at + statSlice)) {
      const path = dir ? `${dir}/${name}` : name;
      if (isLeftOut(job, path)) continue;
      const item = inspect(job, dir, name, lstatQuiet(join(job.root, path)));
      if (item && 'folder' in item) folders.push(item.folder);
      else if (item) job.scan.entries.push(item.entry);
    }
  }
  for (const folder of folders) {
    job.scan.folders.push(folder);
    await walk(job, folder);
  }
}

/** Always-ignored names and the engine's own copies are not even looked at. */
function isLeftOut(job: ScanJob, path: string): boolean {
  return isAlwaysIgnored(path) || (job.options.copies?.has(pathKey(path)) ?? false);
}

/** A name gone (or unreadable) since its folder was listed is simply not there. */
function lstatQuiet(absolute: string): Stats | undefined {
  try {
    return lstatSync(absolute, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * One name of a folder, as the scan sees it, from its lstat. A file to hash is queued on the job
 * (hashed by `finish`); one whose size and mtime match its base is taken as the base says.
 */
function inspect(job: ScanJob, dir: string, name: string, info: Stats | undefined): Found {
  const { rules, base } = job;
  const path = dir ? `${dir}/${name}` : name;
  if (!info) return undefined;
  if (info.isDirectory()) return rules.ignores(`${path}/`) ? undefined : { folder: path };
  if (rules.ignores(path)) return undefined;
  const entry: LocalEntry = { path, size: info.size, mtimeMs: info.mtimeMs };
  if (info.isSymbolicLink()) entry.skip = 'symlink';
  else if (!info.isFile())
    return undefined; // sockets, fifos, devices: not files to sync
  else if (!sanitizeRemotePath(path).ok) entry.skip = 'invalid-name';
  else if (job.options.accepts && !job.options.accepts(path))
    entry.skip = inBadSkillFolder(path) ? 'invalid-name' : 'outside-layout';
  else if (looksLikeConflictCopy(path)) entry.skip = 'looks-like-copy';
  else if (info.size > sizeLimitFor(path)) entry.skip = 'too-large';
  // The API refuses an empty body; a file being rewritten (`cmd > file`) is often empty for a moment.
  else if (info.size === 0 && base.get(pathKey(path))?.size !== 0) entry.skip = 'empty';
  else {
    const known = base.get(pathKey(path));
    if (!known) job.fresh.push(entry);
    else if (known.size !== info.size || known.mtimeMs !== info.mtimeMs) job.changed.push(entry);
  }
  return { entry };
}
