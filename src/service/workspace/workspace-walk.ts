/**
 * The workspace listing's walk: every regular file under a folder, with its lstat. Each folder is
 * read once and its names are lstat()ed synchronously in slices, the loop given back between
 * slices: an awaited lstat per file cost a promise and a thread-pool trip each (100,000 files:
 * seconds per listing, and a poll's 304 walks the same way, since the agent writes the folder
 * directly and only a stat of each file shows an in-place change).
 */
import { lstatSync, type Dirent, type Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { workspaceHashes } from './content-hash-cache';
import { TEMP_PREFIX, isReservedPath } from './workspace-paths';

export interface WalkedFile {
  /** Relative to the workspace, '/'-separated. */
  rel: string;
  absolute: string;
  stat: Stats;
}

/**
 * The regular files under `absDir` with their size and sha256 (in no particular order). A file
 * unchanged since it was last hashed costs its lstat only; the others are read a few at a time
 * (after a restart: all of them). A file removed before its read is simply not listed.
 */
export async function hashedFiles(
  absDir: string,
  segments: readonly string[],
): Promise<{ rel: string; size: number; sha256: string }[]> {
  const out: { rel: string; size: number; sha256: string }[] = [];
  const unknown: WalkedFile[] = [];
  for (const file of await walkFiles(absDir, segments)) {
    const sha256 = workspaceHashes.cached(file.absolute, file.stat);
    if (sha256 === undefined) unknown.push(file);
    else out.push({ rel: file.rel, size: file.stat.size, sha256 });
  }
  const limit = pLimit(8);
  await Promise.all(
    unknown.map((file) =>
      limit(async () => {
        const sha256 = await workspaceHashes.sha256(file.absolute, file.stat).catch(() => undefined);
        if (sha256 !== undefined) out.push({ rel: file.rel, size: file.stat.size, sha256 });
      }),
    ),
  );
  return out;
}

/** Names lstat()ed before the loop is given back: about a millisecond of blocking. */
const statSlice = 256;

/** Regular files under `absDir` (whose workspace segments are `segments`); temp files and the skills folder left out. */
export async function walkFiles(absDir: string, segments: readonly string[]): Promise<WalkedFile[]> {
  const out: WalkedFile[] = [];
  await walk(absDir, segments, out);
  return out;
}

async function walk(absDir: string, segments: readonly string[], out: WalkedFile[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(absDir, { withFileTypes: true });
  } catch (err) {
    // A folder removed while listing is simply gone; anything else is a real failure.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const folders: [string, string[]][] = [];
  for (let at = 0; at < entries.length; at += statSlice) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const entry of entries.slice(at, at + statSlice)) {
      if (entry.name.startsWith(TEMP_PREFIX)) continue;
      const childSegments = [...segments, entry.name];
      if (isReservedPath(childSegments)) continue;
      const absolute = path.join(absDir, entry.name);
      if (entry.isDirectory()) folders.push([absolute, childSegments]);
      else if (entry.isFile()) {
        // A file removed since its folder was read is simply not listed.
        const stat = lstatQuiet(absolute);
        if (stat?.isFile()) out.push({ rel: childSegments.join('/'), absolute, stat });
      }
    }
  }
  for (const [absolute, childSegments] of folders) await walk(absolute, childSegments, out);
}

function lstatQuiet(absolute: string): Stats | undefined {
  try {
    return lstatSync(absolute, { throwIfNoEntry: false });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}
