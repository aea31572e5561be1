import { chmod, mkdir } from 'node:fs/promises';
import { chmodSync, mkdirSync } from 'node:fs';

/**
 * The person's data (conversations, password hashes, workspaces) is readable by that person only: the data
 * folder is 0700, so nothing inside can be reached by another user whatever its own mode. On Windows modes do
 * not apply; the per-user profile folders the app uses already carry a per-user ACL.
 */
export async function makePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir leaves an existing folder's mode alone; an existing data folder is tightened too.
  if (process.platform !== 'win32') await chmod(dir, 0o700);
}

export function makePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(dir, 0o700);
}

/** 0600 for files that already exist (SQLite creates its files with the process umask). */
export function makePrivateFilesSync(paths: readonly string[]): void {
  if (process.platform === 'win32') return;
  for (const path of paths) {
    try {
      chmodSync(path, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * Entry points (not library code: the mask is per process) make every file and folder they create private,
 * including those of the agent processes they start, which inherit it.
 */
export function usePrivateUmask(): void {
  if (process.platform !== 'win32') process.umask(0o077);
}
