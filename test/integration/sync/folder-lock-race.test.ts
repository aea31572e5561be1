import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { tsxCommand } from '../../support/tsx-command';

// Real processes, started together, take one folder's lock in a loop (as two `agentdesk sync` started at the
// same moment do): never two hold it at once. Before the lock was written whole (made empty, then written), a
// process reading it in between took it for stale, removed it and both synced the folder.
const dir = await mkdtemp(join(tmpdir(), 'folder-lock-race-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

function run(deadline: number): Promise<{ held: number; both: number }> {
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
        ? resolve(JSON.parse(out) as { held: number; both: number })
        : reject(new Error(`exit ${code}`)),
    );
  });
}

it('four processes taking one folder lock over and over never hold it together', async () => {
  // The processes start their loops at one moment, after each has loaded.
  const deadline = Date.now() + 8_000;
  const results = await Promise.all([run(deadline), run(deadline), run(deadline), run(deadline)]);
  const held = results.reduce((sum, r) => sum + r.held, 0);
  expect(held).toBeGreaterThan(0);
  expect(results.map((r) => r.both)).toEqual([0, 0, 0, 0]);
  // Nothing of the lock is left behind: not the lock, not a process's own copy of it.
  expect(await readdir(dir)).toEqual([]);
}, 60_000);
