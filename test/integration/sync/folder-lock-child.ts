import { hostname } from 'node:os';
import { openSync, closeSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FolderBusyError, lockFolder } from '../../../src/core/sync/state/folder-lock';

// One of several processes taking the same folder's lock over and over until a deadline: while it holds the
// lock it makes a marker file that only one holder may have; a marker already there means two held it at once.
// Every third time it "dies" holding it instead of releasing: its lock is swapped at once for one naming a
// process that cannot exist (as a killed process leaves it), which the others must take over one at a time.
const [dir, deadline] = [process.argv[2]!, Number(process.argv[3])];
const stateFile = join(dir, 'state.db');
let held = 0;
let both = 0;
let died = 0;
// Times its lock was no longer its own when it let go: removed or replaced under its holder.
let lost = 0;
// Above Linux's largest pid (2^22): no live process has it.
const DEAD_PID = 4_194_311;
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
  if (!stillMine()) lost += 1;
  if (held % 3 === 0) {
    const left = `${stateFile}.lock.${process.pid}.dead`;
    writeFileSync(
      left,
      JSON.stringify({ pid: DEAD_PID, host: hostname(), who: 'a killed process', since: held }),
    );
    renameSync(left, `${stateFile}.lock`);
    died += 1;
  } else lock.release();
}
process.stdout.write(JSON.stringify({ held, both, died, lost }));

function stillMine(): boolean {
  try {
    return (JSON.parse(readFileSync(`${stateFile}.lock`, 'utf8')) as { pid: number }).pid === process.pid;
  } catch {
    return false;
  }
}
