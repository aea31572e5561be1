import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { cliFromSource } from '../support/cli-source';
import { runCli, type CliRun } from './support/cli-run';

// The `agentdesk` command as a real process (bin/agentdesk.js), signing in to the local service it
// starts itself; Chromium plays the person's browser on the address the CLI prints.

const EMAIL = 'cli-person@example.test';
const PASSWORD = 'a long enough password';
let dataDir: string;

type Running = CliRun;

function agentdesk(args: string[]): Running {
  return runCli(process.execPath, [...cliFromSource, ...args, '--data', dataDir, '--no-open']);
}

test.beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-cli-e2e-'));
});
test.afterAll(async () => rm(dataDir, { recursive: true, force: true }));

test('agentdesk login on this computer needs no browser and no password: its own service trusts it', async () => {
  const login = agentdesk(['login']);
  expect(await login.exited, login.output().err).toBe(0);
  expect(login.output().err).not.toMatch(/oauth2\/authorize/);
  // The in-process service's address changes with every command: it is not worth printing.
  expect(login.output().out).toMatch(/^Signed in to This computer as [a-z0-9._-]+\.$/m);
  // Tokens never reach the terminal.
  expect(login.output().out + login.output().err).not.toMatch(/access_token|refresh_token|Bearer /);
});

/** With a keychain the CLI is still signed in; with memory-only tokens it asks again, and the browser answers. */
async function signInIfAsked(run: Running, page: Page): Promise<void> {
  const url = await Promise.race([run.signInUrl, run.exited.then(() => undefined)]);
  if (!url) return;
  await page.goto(url);
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: "You're signed in" })).toBeVisible();
}

test('agentdesk chat streams a reply from the demo agent', async ({ page }) => {
  // The service's first agent of a new account is called "Assistant"; the CLI finds agents by name.
  const chat = agentdesk(['chat', 'assistant', 'hello from a terminal']);
  await signInIfAsked(chat, page);
  expect(await chat.exited).toBe(0);
  expect(chat.output().err).toMatch(/Conversation \S+/);
  expect(chat.output().out).toContain('hello from a terminal');
});
