/**
 * Scans the local side of a synced folder: every file with its size and mtime,
 * hashed only when size or mtime moved since the base. Symlinks are never
 * followed; they, over-size files and names the remote would refuse are
 * reported as skipped instead of being synced or treated as deleted.
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import pLimit, { type LimitFunction } from 'p-limit';
import { hashFile } from './file-hash';
import type { BaseEntry, LocalEntry } from './sync-planner';
import { ignoreFileName, isAlwaysIgnored, pathKey, sanitizeRemotePath } from './sync-paths';

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

export async function scanLocal(root: string, base: ReadonlyMap<string, BaseEntry>): Promise<LocalScan> {
  const rules = await loadIgnoreRules(root);
  const scan: LocalScan = { entries: [], folders: [] };
  // Stats and hashes of one folder run a few at a time: one by one, 20,000 files take seconds.
  await walk({ root, rules, base, scan, limit: pLimit(16) }, '');
  return scan;
}

interface ScanJob {
  root: string;
  rules: Ignore;
  base: ReadonlyMap<string, BaseEntry>;
  scan: LocalScan;
  /** Only for leaf work (stat, hash), so a folder waiting on its children never holds a slot. */
  limit: LimitFunction;
}

type Found = { folder: string } | { entry: LocalEntry } | undefined;

async function walk(job: ScanJob, dir: string): Promise<void> {
  const names = await readdir(join(job.root, dir)).catch((error: NodeJS.ErrnoException) => {
    // A folder that vanished mid-scan is simply not there; anything else is a real failure.
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const found = await Promise.all(names.map((name) => job.limit(() => inspect(job, dir, name))));
  for (const item of found) {
    if (item && 'folder' in item) {
      job.scan.folders.push(item.folder);
      await walk(job, item.folder);
    } else if (item) job.scan.entries.push(item.entry);
  }
}

async function inspect(job: ScanJob, dir: string, name: string): Promise<Found> {
  const { root, rules, base } = job;
  const path = dir ? `${dir}/${name}` : name;
  if (isAlwaysIgnored(path)) return undefined;
  const info = await lstat(join(root, path)).catch(() => undefined);
  if (!info) return undefined;
  if (info.isDirectory()) return rules.ignores(`${path}/`) ? undefined : { folder: path };
  if (rules.ignores(path)) return undefined;
  const entry: LocalEntry = { path, size: info.size, mtimeMs: info.mtimeMs };
  if (info.isSymbolicLink()) entry.skip = 'symlink';
  else if (!info.isFile())
    return undefined; // sockets, fifos, devices: not files to sync
  else if (!sanitizeRemotePath(path).ok) entry.skip = 'invalid-name';
  else if (info.size > sizeLimitFor(path)) entry.skip = 'too-large';
  else {
    const known = base.get(pathKey(path));
    if (!known || known.size !== info.size || known.mtimeMs !== info.mtimeMs) {
      const hashed = await hashFile(join(root, path)).catch(() => undefined);
      if (!hashed) return undefined; // gone since the listing; the next scan sees it as it is
      entry.sha256 = hashed.sha256;
      entry.size = hashed.size;
    }
  }
  return { entry };
}
