/**
 * Replaces or deletes a local file only if what stands there at the last moment is the version
 * the plan saw, never overwriting an editor's save, and a replaced path is never absent (a reader
 * polling the file always finds the old bytes or the new ones):
 *   1. the new bytes are written to a temp file and fsynced;
 *   2. the file is checked (`expect`) and kept in the version history (`keep`) where it stands,
 *      its inode, size and mtime noted before and confirmed unchanged after;
 *   3. the swap, synchronous so nothing runs in between. A replace: link() the file aside (it
 *      stays reachable there), rename() the new bytes over the path, one lstat to see the aside
 *      file is exactly the checked one; if an editor saved between the check and the link, its
 *      version is renamed back over the download. A delete, or a file system without hard links:
 *      rename the file aside, the lstat, then link() the new bytes in (link refuses to replace a
 *      file that appeared meanwhile). A new file: link() only;
 *   4. the aside file is looked at once more: an in-place write that landed after the check
 *      (a writer holding the file open) is kept in the history, and the path re-planned; a
 *      download hands the aside file to `keep` again in any case (a no-op when unchanged).
 * A version that moved in between is put back (or, if the editor saved again, kept in the history)
 * and the path is re-planned: it becomes a conflict, never an overwrite.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, lstatSync, renameSync, type BigIntStats } from 'node:fs';
import { lstat, mkdir, open, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { resolveInsideRoot, ShortWriteError } from './atomic-write';
import { tempFilePrefix } from '../plan/sync-paths';

export interface CheckedReplace {
  root: string;
  path: string;
  /** The new contents, or null to delete. */
  bytes: Uint8Array | null;
  expectedSize?: number;
  /** Whether the file now at the path (`absolute`, checked where it stands; undefined: none) may be replaced. */
  expect: (absolute: string | undefined) => Promise<boolean>;
  /** Keeps a version about to leave the folder (the version history). */
  keep: (absolute: string) => Promise<void>;
  /** What a delete does with the old file once kept (the OS trash); it keeps its own name. */
  dispose?: (absolute: string) => Promise<void>;
}

export type ReplaceOutcome = { replaced: true; mtimeMs?: number } | { replaced: false };

const noHardLinks = new Set(['EPERM', 'ENOTSUP', 'EXDEV', 'ENOSYS', 'EOPNOTSUPP']);

/** What the swap found: done, or why the path is re-planned. */
type Swap = 'swapped' | 'moved' | 'appeared';

export async function replaceChecked(job: CheckedReplace): Promise<ReplaceOutcome> {
  const { bytes } = job;
  if (bytes && job.expectedSize !== undefined && bytes.length !== job.expectedSize)
    throw new ShortWriteError(job.expectedSize, bytes.length);
  const target = await resolveInsideRoot(job.root, job.path);
  await mkdir(dirname(target), { recursive: true });
  let standing = await identify(target);
  // A folder emptied earlier in the cycle may stand where the file goes; rmdir refuses a full one.
  if (standing?.isDirectory()) {
    await rmdir(target);
    standing = undefined;
  }
  const temp = bytes ? await writeTemp(dirname(target), bytes) : undefined;
  const asideDir = join(dirname(target), `${tempFilePrefix}${randomBytes(6).toString('hex')}.d`);
  try {
    if (!(await job.expect(standing ? target : undefined))) return { replaced: false };
    const kept = standing
      ? await job.keep(target).then(
          () => undefined,
          (error: unknown) => error,
        )
      : undefined;
    // The checked version must still be the one standing: an edit during the check is re-planned.
    if (!sameVersion(standing, await identify(target))) return { replaced: false };
    if (kept) throw kept; // the history could not take a version that held still: a real fault
    await mkdir(asideDir);
    const aside = join(asideDir, basename(target));
    const swap = swapIn(target, aside, standing, temp?.path);
    if (swap === 'moved') {
      await putBack(aside, target, job.keep);
      return { replaced: false };
    }
    if (swap === 'appeared') return { replaced: false }; // a new file at the path stays; the old one is kept
    if (standing) {
      // Written in place after the check, by a writer that held the file open?
      const late = !sameVersion(standing, await identify(aside));
      if (late && !bytes) {
        await putBack(aside, target, job.keep);
        return { replaced: false };
      }
      // Kept once more whatever its stat says (a no-op when unchanged): on a file system with
      // coarse mtimes (FAT, HFS+) a same-size write within one tick shows no other sign.
      if (bytes) await job.keep(aside);
      if (late) return { replaced: false };
    }
    if (standing && job.dispose) {
      await job.dispose(aside).catch(async (error: unknown) => {
        await putBack(aside, target, job.keep);
        throw error;
      });
    }
    return { replaced: true, ...(temp ? { mtimeMs: temp.mtimeMs } : {}) };
  } finally {
    if (temp) await rm(temp.path, { force: true });
    await rm(asideDir, { recursive: true, force: true });
  }
}

/**
 * Moves the checked file aside and puts the new bytes in, with no await in between. A replace
 * renames the new bytes over the path, so it never stands empty; a delete (or a file system
 * without hard links) leaves it absent from the rename to the link. Anything but the checked file
 * at the path is left alone.
 */
function swapIn(target: string, aside: string, checked: BigIntStats | undefined, temp?: string): Swap {
  if (checked && temp) {
    const swapped = renameOver(target, aside, checked, temp);
    if (swapped !== 'no-links') return swapped;
  }
  if (checked) {
    try {
      renameSync(target, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'moved'; // deleted after the check
      throw error;
    }
    if (!sameVersion(checked, lstatSync(aside, { bigint: true }))) return 'moved';
  }
  if (!temp) return 'swapped';
  try {
    linkSync(temp, target);
    return 'swapped';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return 'appeared';
    if (!noHardLinks.has(code)) throw error;
  }
  // A file system without hard links: the narrowest check we can make, then rename.
  if (lstatSync(target, { throwIfNoEntry: false })) return 'appeared';
  renameSync(temp, target);
  return 'swapped';
}

/**
 * The replace without a moment of absence: the old file stays reachable by a hard link beside,
 * the new bytes are renamed over it. The one thing this cannot see is an editor's rename-save
 * landing between the link and the rename (two syscalls back to back, no await): it would be
 * replaced unseen. Node offers no renameat2(RENAME_EXCHANGE) to close that instant.
 */
function renameOver(target: string, aside: string, checked: BigIntStats, temp: string): Swap | 'no-links' {
  try {
    linkSync(target, aside);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOENT') return 'moved'; // deleted after the check
    if (noHardLinks.has(code)) return 'no-links';
    throw error;
  }
  renameSync(temp, target);
  if (sameVersion(checked, lstatSync(aside, { bigint: true }))) return 'swapped';
  // An editor saved between the check and the link: its version goes back over the download.
  renameSync(aside, target);
  return 'moved';
}

/** A file's identity for "is it still the checked version": inode, size and mtime to the nanosecond. */
async function identify(absolute: string): Promise<BigIntStats | undefined> {
  return lstat(absolute, { bigint: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

function sameVersion(a: BigIntStats | undefined, b: BigIntStats | undefined): boolean {
  if (!a || !b) return a === b;
  return a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.isFile() === b.isFile();
}

async function writeTemp(dir: string, bytes: Uint8Array): Promise<{ path: string; mtimeMs: number }> {
  const path = join(dir, `${tempFilePrefix}${randomBytes(6).toString('hex')}`);
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
    return { path, mtimeMs: (await handle.stat()).mtimeMs };
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  } finally {
    await handle.close();
  }
}

/** Puts `from` at `target` unless a file appeared there; false when one did. */
async function placeBack(from: string, target: string): Promise<boolean> {
  try {
    linkSync(from, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (!noHardLinks.has(code)) throw error;
  }
  if (await lstat(target).catch(() => undefined)) return false;
  await rename(from, target);
  return true;
}

/** The moved-aside version goes back; if the editor saved again meanwhile, it is kept in the history. */
async function putBack(aside: string, target: string, keep: (absolute: string) => Promise<void>) {
  if (!(await lstat(aside).catch(() => undefined))) return; // never moved aside
  if (await placeBack(aside, target)) return;
  await keep(aside);
}
