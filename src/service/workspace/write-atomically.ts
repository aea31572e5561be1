import { constants, type Stats } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { tempName } from './workspace-paths';

/**
 * Write `bytes` to `target` through a temp file in the same folder and a rename. Resolves to the
 * written file's stat as it was before the rename (its inode and mtime stay the same after it).
 */
export async function writeAtomically(
  target: string,
  bytes: Uint8Array,
  beforeRename?: () => Promise<void>,
): Promise<Stats> {
  const temp = path.join(path.dirname(target), tempName());
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  let written: Stats;
  try {
    await handle.writeFile(bytes);
    await handle.sync();
    written = await handle.stat();
  } catch (err) {
    await handle.close();
    await rm(temp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await beforeRename?.();
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  return written;
}
