import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';

// The README's run-the-app command, exactly as a newcomer runs it: `npm run web` as a spawned
// process (it builds, starts the local service, the host and the page server), with an empty
// HOME and a clean data folder. One click on "This computer" (no account, no password) and the
// page chats with the demo agent.

const repo = resolve(import.meta.dirname, '../..');
let child: ChildProcess | undefined;
let scratch: string;

test.beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agentdesk-fresh-'));
});

test.afterAll(async () => {
  if (child && child.exitCode === null) {
    // npm does not pass SIGTERM on through its shell: end the whole process group it leads.
    const exited = new Promise((done) => child!.once('exit', done));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
  await rm(scratch, { recursive: true, force: true });
});

function startWeb(home: string, data: string): Promise<string> {
  child = spawn('npm', ['run', 'web', '--', '--data', data], {
    cwd: repo,
    env: { ...process.env, HOME: home, AGENTDESK_DEMO_PACE_MS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  return new Promise((resolveUrl, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const url = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(output)?.[1];
      if (url) resolveUrl(url);
    };
    child!.stdout!.on('data', onData);
    child!.stderr!.on('data', onData);
    child!.once('exit', (code) => reject(new Error(`npm run web exited with ${code}:\n${output}`)));
  });
}

test('npm run web on a clean data folder prints the URL; the page signs in and chats', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const home = join(scratch, 'home');
  const data = join(scratch, 'data');
  await mkdir(home, { recursive: true });
  const url = await startWeb(home, data);

  const page = await browser.newPage();
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Welcome to AgentDesk' })).toBeVisible();
  // "This computer" needs no account: the app's own service trusts the app that started it.
  await page.getByRole('button', { name: 'Start on this computer' }).click();
  await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
  // The first screen is ready to type into.
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Hello from a fresh clone');
  await box.press('Enter');
  await expect(page.getByRole('article', { name: 'Agent reply' }).last()).toContainText(
    'You said: "Hello from a fresh clone"',
    { timeout: 30_000 },
  );
});
