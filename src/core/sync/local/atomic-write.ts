/**
 * Local writes that never leave a half-written file: write a temp file in the
 * same folder, check its size, fsync, then rename over the target.
 * Invariant: the target holds either its old contents or the new ones.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { freeName } from './free-name';
import { conflictCopyName, isAlwaysIgnored, tempFilePrefix } from '../plan/sync-paths';

export class ShortWriteError extends Error {
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`Downloaded ${actual} bytes where ${expected} were listed; the file was left as it was.`);
  }
}

/**
 * Resolves `path` under `root`, refusing anything that would land outside it or
 * pass through a symlinked folder.
 */
export async function resolveInsideRoot(root: string, path: string): Promise<string> {
  const absolute = resolve(root, path);
  const rel = relative(resolve(root), absolute);
  if (rel === '' || rel.startsWith('..') || rel.includes(`..${sep}`) || resolve(root, rel) !== absolute) {
    throw new Error(`Refused a path outside the sync folder: ${path}`);
  }
  let current = resolve(root);
  for (const part of rel.split(sep).slice(0, -1)) {
    current = join(current, part);
    const info = await lstat(current).catch(() => undefined);
    if (info?.isSymbolicLink()) throw new Error(`Refused to write through a symlinked folder: ${path}`);
    if (info && !info.isDirectory()) throw new Error(`A file stands where a folder is needed: ${path}`);
  }
  return absolute;
}

/**
 * Writes `bytes` to `root/path` atomically. `expectedSize` guards against short downloads.
 * Resolves to the written file's mtime, read before the rename (which keeps it): a stat after
 * the rename could see an edit the person made in between, and record it as already synced.
 */
export async function writeFileAtomic(
  root: string,
  path: string,
  bytes: Uint8Array,
  expectedSize?: number,
): Promise<{ mtimeMs: number }> {
  if (expectedSize !== undefined && bytes.length !== expectedSize)
    throw new ShortWriteError(expectedSize, bytes.length);
  const target = await resolveInsideRoot(root, path);
  await mkdir(dirname(target), { recursive: true });
  // A folder emptied earlier in the cycle may stand where the file goes (folder → file); rmdir refuses a non-empty one.
  const existing = await lstat(target).catch(() => undefined);
  if (existing?.isDirectory()) await rmdir(target);
  const temp = join(dirname(target), `${tempFilePrefix}${randomBytes(6).toString('hex')}`);
  try {
    const handle = await open(temp, 'wx');
    let mtimeMs: number;
    try {
      await handle.writeFile(bytes);
      await handle.sync();
      mtimeMs = (await handle.stat()).mtimeMs;
    } finally {
      await handle.close();
    }
    await rename(temp, target);
    return { mtimeMs };
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Removes temp files a crash may have left behind anywhere under the root. */
export async function clearStaleTempFiles(root: string, dir = ''): Promise<number> {
  let removed = 0;
  const entries = await readdir(join(root, dir), { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory() && entry.name.startsWith(tempFilePrefix)) {
      await recoverAside(root, dir, path);
      removed += 1;
    } else if (entry.isDirectory() && !isAlwaysIgnored(path)) {
      removed += await clearStaleTempFiles(root, path);
    } else if (entry.name.startsWith(tempFilePrefix)) {
      await rm(join(root, path), { force: true });
      removed += 1;
    }
  }
  return removed;
}

/**
 * A crash while a file stood aside (checked-replace.ts): it goes back to its path, or, when a
 * newer file stands there, stays beside it under a `.recovered-` name. Nothing is dropped.
 */
async function recoverAside(root: string, dir: string, asideDir: string): Promise<void> {
  const names = await readdir(join(root, asideDir)).catch(() => []);
  for (const name of names) {
    const from = join(root, asideDir, name);
    const path = dir ? `${dir}/${name}` : name;
    const there = await lstat(join(root, path)).catch(() => undefined);
    const to = there ? await freeName(root, (n) => conflictCopyName(path, new Date(), n, 'recovered')) : path;
    await rename(from, join(root, to));
  }
  await rm(join(root, asideDir), { recursive: true, force: true });
}
