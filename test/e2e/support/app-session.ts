import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, type Browser, type Page } from '@playwright/test';
import {
  startBrowserMode,
  type BrowserMode,
  type BrowserModeOptions,
} from '../../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import type { RunningService } from '../../../src/service/index';
import { signIn as apiSignIn } from '../../support/local-service';
import { lateAnswers } from './late-answers';

/**
 * One app in browser mode (built renderer, bridge over its WebSocket, host) on the real local service,
 * with a person signed in through the app's own browser flow. Tokens live in a memory secret store:
 * there is no OS keychain on a test machine. The API is also reached as a second client of the same
 * person, so specs can check the server's state after acting in the app.
 */
export interface AppSession {
  mode: BrowserMode;
  dataDir: string;
  email: string;
  password: string;
  service(): RunningService;
  /** An API call as the same person, through a separate sign-in. */
  api(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** The sign-in screen's button for "This computer". */
export const START_HERE = 'Start on this computer';

export const screens = resolve(import.meta.dirname, '../../../test-results/screens');
const rendererDir = resolve(import.meta.dirname, '../../../out/renderer');

export async function startApp(
  browser: Browser,
  options: { email: string; password?: string; dataDir?: string } & Partial<BrowserModeOptions> = {
    email: 'person@example.test',
  },
): Promise<AppSession> {
  await mkdir(screens, { recursive: true });
  const own = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'agentdesk-e2e-')));
  const password = options.password ?? 'a long enough password';
  const { email, dataDir: _ignored, password: _password, ...modeOptions } = options;
  // A password account, so a spec can also reach the API as the same person through its own sign-in;
  // first-run.spec.ts walks the default, passwordless start.
  const mode = await startBrowserMode({
    rendererDir,
    secrets: createMemorySecretStore(),
    trustedLaunch: false,
    ...modeOptions,
    dataDir,
  });
  const page = await browser.newPage();
  await signInThroughTheApp(page, mode, email, password);
  await page.close();
  const service = (): RunningService => {
    const running = mode.service();
    if (!running) throw new Error('the local service did not start');
    return running;
  };
  let token: string | undefined;
  return {
    mode,
    dataDir,
    email,
    password,
    service,
    async api(path, init = {}) {
      token ??= (await apiSignIn(service(), { email, password })).access_token;
      return fetch(`${service().url}${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
      });
    },
    async close() {
      await mode.close();
      if (own) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Signs in with a password the way a person does on a service that does not trust the app (browser mode
 * started with `trustedLaunch: false`): the app opens the sign-in page in a new tab; a first run creates
 * the account.
 */
export async function signInThroughTheApp(page: Page, mode: BrowserMode, email: string, password: string) {
  if (!page.url().startsWith(mode.origin)) await page.goto(mode.url);
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: START_HERE }).click();
  const tab = await popup;
  const done = tab.getByRole('heading', { name: "You're signed in" });
  const create = tab.getByRole('button', { name: 'Create account' });
  const signInButton = tab.getByRole('button', { name: 'Sign in', exact: true });
  // A first run creates the account; a known person signs in; a live browser session goes straight through.
  await expect(done.or(create).or(signInButton)).toBeVisible();
  if (await create.isVisible()) {
    await tab.getByLabel('E-mail').fill(email);
    await tab.getByLabel('Password (at least 8 characters)').fill(password);
    await tab.getByLabel('Repeat the password').fill(password);
    await create.click();
  } else if (await signInButton.isVisible()) {
    await tab.getByLabel('E-mail').fill(email);
    await tab.getByLabel('Password', { exact: true }).fill(password);
    await signInButton.click();
  }
  await expect(tab.getByRole('heading', { name: "You're signed in" })).toBeVisible();
  await tab.close();
  await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
}

/** Opens the app already signed in. */
export async function openApp(page: Page, app: AppSession): Promise<void> {
  await lateAnswers(page);
  await page.goto(app.mode.url);
  await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
}

/** Goes to one of the person's screens through the sidebar. */
export async function showScreen(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'App' }).getByRole('button', { name: label }).click();
}
