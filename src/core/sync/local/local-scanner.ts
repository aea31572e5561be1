/**
 * Scans the local side of a synced folder: every file with its size and mtime,
 * hashed only when size or mtime moved since the base (and a new file only when the remote
 * holds the same path, so the planner can tell equal from conflicting). Symlinks are never
 * followed; they, over-size files and names the remote would refuse are
 * reported as skipped instead of being synced or treated as deleted.
 */
import { lstatSync, type Stats } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import pLimit, { type LimitFunction } from 'p-limit';
import { hashFile } from './file-hash';
import { inBadSkillFolder } from '../plan/remote-side';
import type { BaseEntry, LocalEntry } from '../plan/sync-planner';
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

/** Reads the root's `.agentdeskignore` (gitignore syntax), if any. */
export async function loadIgnoreRules(root: string): Promise<Ignore> {
  const rules = ignore();
  const text = await readFile(join(root, ignoreFileName), 'utf8').catch(() => '');
  return rules.add(text);
}

export interface ScanOptions {
  /** The root's ignore rules, when the caller loaded them already (they apply to the remote too). */
  rules?: Ignore;
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
  const rules = options.rules ?? (await loadIgnoreRules(root));
  const scan: LocalScan = { entries: [], folders: [] };
  // Stats and hashes of one folder run a few at a time: one by one, 20,000 files take seconds.
  await walk({ root, rules, base, scan, limit: pLimit(16), options }, '');
  return scan;
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
  const rules = options.rules ?? (await loadIgnoreRules(root));
  const scan: LocalScan = { entries: [], folders: [] };
  const job: ScanJob = { root, rules, base, scan, limit: pLimit(16), options };
  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    const item = await inspect(job, slash < 0 ? '' : path.slice(0, slash), path.slice(slash + 1));
    if (item && 'folder' in item) {
      scan.folders.push(item.folder);
      await walk(job, item.folder);
    } else if (item) scan.entries.push(item.entry);
  }
  return scan;
}

interface ScanJob {
  root: string;
  rules: Ignore;
  base: ReadonlyMap<string, BaseEntry>;
  scan: LocalScan;
  /** Only for leaf work (hashing), so a folder waiting on its children never holds a slot. */
  limit: LimitFunction;
  options: ScanOptions;
}

type Found = { folder: string } | { entry: LocalEntry } | undefined;

/** Names stat()ed in one go before the loop is given back: about a millisecond of blocking. */
const statSlice = 256;

async function walk(job: ScanJob, dir: string): Promise<void> {
  const names = await readdir(join(job.root, dir)).catch((error: NodeJS.ErrnoException) => {
    // A folder that vanished mid-scan is simply not there; anything else is a real failure.
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const found: Found[] = [];
  for (let at = 0; at < names.length; at += statSlice) {
    // lstat in slices, synchronously: a promise per lstat cost five times the CPU of the call
    // itself (100,000 files: seconds of a start); a slice holds the event loop about 1 ms.
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    const slice = names.slice(at, at + statSlice).map((name) => {
      const path = dir ? `${dir}/${name}` : name;
      const skip = isAlwaysIgnored(path) || job.options.copies?.has(pathKey(path));
      return { name, info: skip ? undefined : lstatQuiet(join(job.root, path)) };
    });
    found.push(...(await Promise.all(slice.map(({ name, info }) => inspect(job, dir, name, info ?? null)))));
  }
  for (const item of found) {
    if (item && 'folder' in item) {
      job.scan.folders.push(item.folder);
      await walk(job, item.folder);
    } else if (item) job.scan.entries.push(item.entry);
  }
}

/** A name gone (or unreadable) since its folder was listed is simply not there. */
function lstatQuiet(absolute: string): Stats | undefined {
  try {
    return lstatSync(absolute, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** One name of a folder, as the scan sees it; `stat` is its lstat when the walk took it already (null: none). */
async function inspect(job: ScanJob, dir: string, name: string, stat?: Stats | null): Promise<Found> {
  const { root, rules, base } = job;
  const path = dir ? `${dir}/${name}` : name;
  if (isAlwaysIgnored(path) || job.options.copies?.has(pathKey(path))) return undefined;
  const info = stat === undefined ? await lstat(join(root, path)).catch(() => undefined) : stat;
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
    const key = pathKey(path);
    const known = base.get(key);
    const listed = known ? undefined : await job.options.listedRemotely;
    const uploadHashes = !known && listed?.has(key) === false;
    if (!uploadHashes && (!known || known.size !== info.size || known.mtimeMs !== info.mtimeMs)) {
      const hashed = await job.limit(() => hashFile(join(root, path)).catch(() => undefined));
      if (!hashed) return undefined; // gone since the listing; the next scan sees it as it is
      entry.sha256 = hashed.sha256;
      entry.size = hashed.size;
      if (hashed.size === 0 && known?.size !== 0) entry.skip = 'empty';
    }
  }
  return { entry };
}
