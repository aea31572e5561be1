import { openSync, closeSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { FolderBusyError, lockFolder } from '../../../src/core/sync/state/folder-lock';

// One of several processes taking the same folder's lock over and over until a deadline: while it holds the
// lock it makes a marker file that only one holder may have; a marker already there means two held it at once.
const [dir, deadline] = [process.argv[2]!, Number(process.argv[3])];
const stateFile = join(dir, 'state.db');
let held = 0;
let both = 0;
while (Date.now() < deadline) {
  let lock;
  try {
    lock = lockFolder(stateFile, dir, 'a racing process');
  } catch (error) {
    if (error instanceof FolderBusyError || /Could not take the lock/.test(String(error))) continue;
    throw error;
  }
  held += 1;
  const marker = join(dir, 'holder');
  try {
    closeSync(openSync(marker, 'wx'));
    unlinkSync(marker);
  } catch {
    both += 1;
  }
  lock.release();
}
process.stdout.write(JSON.stringify({ held, both }));
