import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { tsxCommand } from '../../support/tsx-command';

// Real processes, started together, take one folder's lock in a loop (as two `agentdesk sync` started at the
// same moment do), some of them dying while they hold it: never two hold it at once. Before the lock was written
// whole (made empty, then written), a process reading it in between took it for stale, removed it and both
// synced the folder; before a stale lock was taken over under a guard, two processes that saw it stale both
// removed it, the second removing the lock the first had just made.
const dir = await mkdtemp(join(tmpdir(), 'folder-lock-race-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

function run(deadline: number): Promise<{ held: number; both: number; died: number; lost: number }> {
  const [command, ...args] = tsxCommand(
    join(import.meta.dirname, 'folder-lock-child.ts'),
    dir,
    String(deadline),
  );
  const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as { held: number; both: number; died: number; lost: number })
        : reject(new Error(`exit ${code}`)),
    );
  });
}

it('four processes taking one folder lock over and over, and dying with it, never hold it together', async () => {
  // The processes start their loops at one moment, after each has loaded.
  const deadline = Date.now() + 8_000;
  const results = await Promise.all([run(deadline), run(deadline), run(deadline), run(deadline)]);
  const held = results.reduce((sum, r) => sum + r.held, 0);
  expect(held).toBeGreaterThan(0);
  expect(results.reduce((sum, r) => sum + r.died, 0)).toBeGreaterThan(0);
  expect(results.map((r) => r.both)).toEqual([0, 0, 0, 0]);
  expect(results.map((r) => r.lost)).toEqual([0, 0, 0, 0]);
  // Nothing is left behind but the lock of the last one that died holding it, if it did: not a process's own
  // copy of it, not a takeover's guard.
  expect((await readdir(dir)).filter((name) => name !== 'state.db.lock')).toEqual([]);
}, 60_000);
