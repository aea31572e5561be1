/**
 * Sync's change detection while the system clock jumps (issue 38, item 5): the real CLI (`agentdesk sync`
 * watching a folder, its own process) against the real local service, the CLI's clock moved back an hour
 * or forward a day mid-run by the clock-shift preload, which stands in for a system clock step (see
 * test/support/clock-shift-preload.mjs). A real step also dates the files written after it, so the person's
 * edits are saved as an editor does (a temp file, then a rename) with the mtime the stepped clock gives:
 * an hour older than the one the sync recorded, or a day newer. The service keeps no times in a listing
 * (sizes and hashes), so it runs unshifted here. Each edit is uploaded, the agent's edit downloaded, and a
 * file whose mtime alone moved is not sent again (the service's copy keeps its inode: it was not
 * rewritten); nothing is deleted and no conflict copy appears.
 */
import { readdir, readFile, rename, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clockShift, DAY, HOUR } from '../../support/clock-shift';
import { agentWorkspaceDir } from '../../../src/service/workspace/agent-folders';
import { useCliWorld } from '../sync/cli-harness';

const w = useCliWorld();
const shift = clockShift();
afterAll(() => shift.remove());

/** Saved as an editor saves, dated by the (stepped) clock the CLI reads. */
async function save(path: string, text: string): Promise<void> {
  const temp = join(w.scratch, 'editor.tmp');
  await writeFile(temp, text);
  const at = new Date(shift.now());
  await utimes(temp, at, at);
  await rename(temp, local(path));
}

/** Only the mtime moves (a `touch` after the step). */
async function touch(path: string): Promise<void> {
  const at = new Date(shift.now());
  await utimes(local(path), at, at);
}

/** The agent's workspace is the folder's `work/` (a machine agent's layout). */
const local = (path: string) => join(w.folder, 'work', path);
const localText = (path: string) => readFile(local(path), 'utf8').catch(() => undefined);
const serviceCopy = (path: string) => stat(join(agentWorkspaceDir(w.service.dataDir, w.agentId), path));

async function inStep(files: Record<string, string>, output: () => string): Promise<void> {
  const seen: string[] = [];
  await w
    .until(async () => {
      seen.length = 0;
      for (const [path, text] of Object.entries(files)) {
        const sides = [await w.readRemote(path), await localText(path)];
        if (sides.some((side) => side !== text)) seen.push(`${path}: agent ${sides[0]}, person ${sides[1]}`);
      }
      return seen.length === 0 ? true : undefined;
    }, 20_000)
    .catch(() => {
      throw new Error(`not in step: ${seen.join('; ')}\nThe sync said:\n${output()}`);
    });
}

/** Minutes between two times of day as toLocaleTimeString prints them (this process's locale is the CLI's). */
function minutesApart(a: string, b: string): number {
  const at = (text: string) => Date.parse(`2000-01-01 ${text}`);
  const apart = Math.abs(at(a) - at(b)) / 60_000;
  return Math.min(apart, 24 * 60 - apart);
}

async function jumpWhileSyncing(offset: number): Promise<void> {
  await shift.set(0);
  await w.writeLocal('work/notes.txt', 'notes 1');
  await w.writeLocal('work/kept.txt', 'kept 1');
  await w.writeRemote('from-agent.txt', 'agent 1');
  const sync = w.startCli([w.folder, '--agent', w.agentId, '--server', w.service.url], shift.env);
  try {
    await inStep({ 'notes.txt': 'notes 1', 'kept.txt': 'kept 1', 'from-agent.txt': 'agent 1' }, sync.output);
    const kept = (await serviceCopy('kept.txt')).ino;

    await shift.set(offset);
    // Same sizes as before, so only the mtime (older or newer than recorded) or the hash tells.
    await save('notes.txt', 'notes 2');
    await touch('kept.txt');
    await w.writeRemote('from-agent.txt', 'agent 2');
    await inStep({ 'notes.txt': 'notes 2', 'kept.txt': 'kept 1', 'from-agent.txt': 'agent 2' }, sync.output);

    // A second edit after the first one synced on the stepped clock is seen too.
    await save('notes.txt', 'notes 3');
    await inStep({ 'notes.txt': 'notes 3' }, sync.output);
    expect((await serviceCopy('kept.txt')).ino, 'kept.txt was sent again').toBe(kept);
    const names = (await readdir(join(w.folder, 'work'))).sort();
    expect(names).toEqual(['from-agent.txt', 'kept.txt', 'notes.txt']);
    const listing = await w.api.listWorkspace(w.agentId, '');
    expect(listing.ok && listing.value.files.map((file) => file.path).sort()).toEqual([
      'from-agent.txt',
      'kept.txt',
      'notes.txt',
    ]);
    expect(sync.output()).not.toMatch(/conflict|delet/i);
    // The CLI did read the stepped clock: its last "In step at" is the stepped time of day.
    const said = [...sync.output().matchAll(/In step at (.+)\.\n/g)].at(-1)?.[1];
    expect(said).toBeDefined();
    expect(minutesApart(said!, new Date(shift.now()).toLocaleTimeString())).toBeLessThan(3);
  } finally {
    sync.child.kill('SIGTERM');
    await sync.finished;
  }
}

describe('the CLI’s sync when the clock jumps', () => {
  it('sends an edit dated an hour before the last sync, after the clock went back', () =>
    jumpWhileSyncing(-HOUR));

  it('sends an edit dated a day ahead, after the clock went forward, and nothing twice', () =>
    jumpWhileSyncing(DAY));
});
