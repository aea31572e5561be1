import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { runCli, type CliRun } from './support/cli-run';

// The package as a person gets it: `npm pack` (its prepack builds when the sources changed), then
// `npm install -g` of the tarball into a fresh prefix, with only the registry. The installed
// `agentdesk` runs the built CLI and its embedded service; nothing here reads the repository's
// sources. Chromium plays the person's browser for the sign-in. Timing stays in `npm run bench`.

const repo = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const EMAIL = 'packed-person@example.test';
const PASSWORD = 'a long enough password';
let scratch: string;
let agentdesk: string;
let dataDir: string;

test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

test.beforeAll(async () => {
  test.setTimeout(600_000);
  scratch = await mkdtemp(join(tmpdir(), 'agentdesk-packed-'));
  const prefix = join(scratch, 'prefix');
  await mkdir(join(scratch, 'pack'));
  await run('npm', ['pack', '--pack-destination', join(scratch, 'pack')], { cwd: repo, timeout: 300_000 });
  const [tarball] = await readdir(join(scratch, 'pack'));
  expect(tarball).toMatch(/^agentdesk-.+\.tgz$/);
  // Installed from outside the repository, so nothing resolves back into it. The dependencies come from npm's
  // cache where `npm ci` left them (--prefer-offline), from the registry otherwise.
  await run(
    'npm',
    [
      'install',
      '-g',
      '--prefix',
      prefix,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      join(scratch, 'pack', tarball!),
    ],
    { cwd: scratch, timeout: 300_000 },
  );
  agentdesk = join(prefix, 'bin', 'agentdesk');
  dataDir = join(scratch, 'data');
});

test.afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

type Running = CliRun;

function start(args: string[]): Running {
  return runCli(agentdesk, [...args, '--data', dataDir], { cwd: scratch, env: { HOME: scratch } });
}

/** Memory-only tokens (no keychain here) mean each command asks again; the browser answers. */
async function signInIfAsked(running: Running, page: Page, firstTime = false): Promise<void> {
  const url = await Promise.race([running.signInUrl, running.exited.then(() => undefined)]);
  if (!url) return;
  await page.goto(url);
  if (firstTime) {
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password (at least 8 characters)').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
  } else {
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await expect(page.getByRole('heading', { name: "You're signed in" })).toBeVisible();
}

test('the installed agentdesk answers --help from the built CLI, not the sources', async () => {
  const help = start(['--help']);
  expect(await help.exited).toBe(0);
  expect(help.output().out).toContain('Usage: agentdesk <command> [options]');
  // The package carries the built program only: no TypeScript to fall back on.
  const installed = join(agentdesk, '../../lib/node_modules/agentdesk');
  expect(existsSync(join(installed, 'out/node/cli.js'))).toBe(true);
  expect(existsSync(join(installed, 'src'))).toBe(false);
});

test('the installed agentdesk signs in to its embedded service, lists agents and chats', async ({ page }) => {
  const login = start(['login', '--no-open']);
  await signInIfAsked(login, page, true);
  expect(await login.exited).toBe(0);
  // Its embedded service trusts it: no browser, no password; the account is this computer's owner.
  expect(login.output().out).toMatch(/Signed in to This computer as [a-z0-9._-]+\./);

  const agents = start(['agents', '--no-open']);
  await signInIfAsked(agents, page);
  expect(await agents.exited).toBe(0);
  expect(agents.output().out).toMatch(/\tAssistant$/m);

  // The reply comes from the demo agent, which the installed package starts from its own built file.
  const chat = start(['chat', 'assistant', 'hello from the tarball', '--no-open']);
  await signInIfAsked(chat, page);
  expect(await chat.exited).toBe(0);
  expect(chat.output().err).toMatch(/Conversation \S+/);
  expect(chat.output().out).toContain('hello from the tarball');
});

test('the installed agentdesk sync runs its built sync command', async () => {
  // Signed in to This computer earlier in this file, the sync signs in by itself (no keychain here) and names
  // the agent it cannot reach; run alone, with no place chosen yet, it says how to sign in. A run that syncs
  // is guide-commands.test.ts's and cli.test.ts's.
  const folder = join(scratch, 'folder');
  await mkdir(folder);
  const sync = start(['sync', folder, '--agent', 'some-agent', '--once']);
  expect([1, 2]).toContain(await sync.exited);
  expect(sync.output().err).toMatch(/Could not reach agent some-agent|Sign in with agentdesk login/);
});
