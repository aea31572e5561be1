import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort } from '../support/service-process';

// The README's browser-mode options: `npm run web -- [--data <dir>] [--port <n>]`, data in `--data`,
// else `$AGENTDESK_DATA`. `npm run web` is `electron-vite build && tsx src/browser/main.ts`; the build
// is the suite's own step (fresh-start.spec.ts runs the whole npm script), so this runs the second half
// as a real process. fresh-start.spec.ts covers `--data`.

const repo = resolve(import.meta.dirname, '../..');
const tsx = join(repo, 'node_modules/.bin/tsx');
const main = join(repo, 'src/browser/main.ts');
const children: ChildProcess[] = [];
let scratch: string;

test.beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agentdesk-web-options-'));
});

test.afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(
    children.map((child) => (child.exitCode === null ? new Promise((done) => child.once('exit', done)) : 0)),
  );
  await rm(scratch, { recursive: true, force: true });
});

function web(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(tsx, [main, ...args], {
    cwd: repo,
    env: { ...process.env, HOME: scratch, AGENTDESK_DATA: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  return { out: () => out, err: () => err, exited };
}

test('--port is the address it serves on, and $AGENTDESK_DATA is where its data goes', async ({ page }) => {
  const port = await freePort();
  const data = join(scratch, 'from-env');
  const run = web(['--port', String(port)], { AGENTDESK_DATA: data });
  await expect.poll(run.out, { timeout: 30_000 }).toContain('#key=');
  expect(run.out()).toContain(`Data: ${data}`);
  expect(existsSync(data)).toBe(true);
  const url = /(http:\/\/127\.0\.0\.1:\d+\/#key=\S+)/.exec(run.out())![1]!;
  expect(url.startsWith(`http://127.0.0.1:${port}/#key=`)).toBe(true);
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Welcome to AgentDesk' })).toBeVisible();
});

test('a --port that is not a port number stops it with plain words', async () => {
  const run = web(['--port', 'eighty', '--data', join(scratch, 'unused')]);
  expect(await run.exited).toBe(1);
  expect(run.err()).toContain(
    'AgentDesk could not start: --port takes a whole number from 0 to 65535 (0: any free port), not "eighty".',
  );
});

test('--help lists the options and starts nothing', async () => {
  const data = join(scratch, 'help-only');
  const run = web(['--help'], { AGENTDESK_DATA: data });
  expect(await run.exited).toBe(0);
  expect(run.out()).toContain('Usage: npm run web -- [--data <dir>] [--port <n>] [--verbose]');
  expect(run.out()).toContain(`--data <dir>   the app's data folder (without it: ${data};`);
  expect(existsSync(data)).toBe(false);
});
