/**
 * Replaces or deletes a local file only if what stands there at the last moment is the version
 * the plan saw, with no window in which an editor's save could be overwritten:
 *   1. the new bytes are written to a temp file and fsynced;
 *   2. the current file is moved aside by one rename — from then on an editor's save lands as a
 *      new file at the path, never under our feet;
 *   3. the moved-aside file is checked (`expect`) and kept in the version history (`keep`);
 *   4. the new bytes go in with link(), which refuses to replace a file that appeared meanwhile.
 * A version that moved in between is put back (or, if the editor saved again, kept in the history)
 * and the path is re-planned: it becomes a conflict, never an overwrite.
 */
import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, open, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { resolveInsideRoot, ShortWriteError } from './atomic-write';
import { tempFilePrefix } from './sync-paths';

export interface CheckedReplace {
  root: string;
  path: string;
  /** The new contents, or null to delete. */
  bytes: Uint8Array | null;
  expectedSize?: number;
  /** Whether the file now at the path (moved aside to `absolute`; undefined: none) may be replaced. */
  expect: (absolute: string | undefined) => Promise<boolean>;
  /** Keeps a version about to leave the folder (the version history). */
  keep: (absolute: string) => Promise<void>;
  /** What a delete does with the old file once kept (the OS trash); it keeps its own name. */
  dispose?: (absolute: string) => Promise<void>;
}

export type ReplaceOutcome = { replaced: true; mtimeMs?: number } | { replaced: false };

const noHardLinks = new Set(['EPERM', 'ENOTSUP', 'EXDEV', 'ENOSYS', 'EOPNOTSUPP']);

export async function replaceChecked(job: CheckedReplace): Promise<ReplaceOutcome> {
  const { bytes } = job;
  if (bytes && job.expectedSize !== undefined && bytes.length !== job.expectedSize)
    throw new ShortWriteError(job.expectedSize, bytes.length);
  const target = await resolveInsideRoot(job.root, job.path);
  await mkdir(dirname(target), { recursive: true });
  const standing = await lstat(target).catch(() => undefined);
  // A folder emptied earlier in the cycle may stand where the file goes; rmdir refuses a full one.
  if (standing?.isDirectory()) await rmdir(target);
  const temp = bytes ? await writeTemp(dirname(target), bytes) : undefined;
  const asideDir = join(dirname(target), `${tempFilePrefix}${randomBytes(6).toString('hex')}.d`);
  await mkdir(asideDir);
  const aside = join(asideDir, basename(target));
  try {
    const movedAside = await rename(target, aside).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
    if (!(await job.expect(movedAside ? aside : undefined))) {
      if (movedAside) await putBack(aside, target, job.keep);
      return { replaced: false };
    }
    if (movedAside)
      await job.keep(aside).catch(async (error: unknown) => {
        await putBack(aside, target, job.keep);
        throw error;
      });
    if (temp) {
      const placed = await placeNew(temp.path, target);
      if (!placed) return { replaced: false }; // a new file appeared at the path: it stays, we re-plan
    }
    if (movedAside && job.dispose) {
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

/** Puts `temp` at `target` unless a file appeared there; false when one did. */
async function placeNew(temp: string, target: string): Promise<boolean> {
  try {
    await link(temp, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (!noHardLinks.has(code)) throw error;
  }
  // A file system without hard links: the narrowest check we can make, then rename.
  if (await lstat(target).catch(() => undefined)) return false;
  await rename(temp, target);
  return true;
}

/** The moved-aside version goes back; if the editor saved again meanwhile, it is kept in the history. */
async function putBack(aside: string, target: string, keep: (absolute: string) => Promise<void>) {
  if (await placeNew(aside, target)) return;
  await keep(aside);
}
