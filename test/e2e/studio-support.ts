import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startBrowserMode, type BrowserMode, type BrowserModeOptions } from '../../src/browser/browser-mode';
import { createApiClient, type ApiClient } from '../../src/core/api/api-client';
import { staticTokenSource } from '../../src/core/auth/access-token-source';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import { firstAgentId, signIn as apiSignIn } from '../support/local-service';
import { signInThroughTheApp } from './support/app-session';

// The agent studio end to end: browser mode (the built renderer, the bridge over its WebSocket, the
// host) against the real local service and its demo agent. What the service holds afterwards is read
// back through the API as a second client of the same person. Tokens live in a memory secret store
// (no OS keychain on a test machine); nothing else is replaced.

const EMAIL = 'studio@example.test';
const PASSWORD = 'a long enough password';
export const screens = resolve(import.meta.dirname, '../../test-results/screens');

export interface StudioRig {
  mode: BrowserMode;
  scratch: string;
  /** Set once `signInAndOpen` ran: the API as the same person, and their first agent. */
  api: ApiClient;
  agentId: string;
  accessToken: string;
  close(): Promise<void>;
}

export async function startStudioRig(
  serviceConfig?: BrowserModeOptions['serviceConfig'],
): Promise<StudioRig> {
  await mkdir(screens, { recursive: true });
  const scratch = await mkdtemp(join(tmpdir(), 'agentdesk-studio-e2e-'));
  const mode = await startBrowserMode({
    dataDir: join(scratch, 'data'),
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
    secrets: createMemorySecretStore(),
    trustedLaunch: false,
    ...(serviceConfig ? { serviceConfig } : {}),
  });
  const rig = {
    mode,
    scratch,
    api: undefined as unknown as ApiClient,
    agentId: '',
    accessToken: '',
    close: async () => {
      await mode.close();
      await rm(scratch, { recursive: true, force: true });
    },
  };
  return rig;
}

/**
 * The spec's rig: one browser mode and local service for the file's tests (run in order), closed after
 * them. The object is filled in before the first test.
 */
export function studioRig(serviceConfig?: BrowserModeOptions['serviceConfig']): StudioRig {
  const rig = {} as StudioRig;
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async () => {
    Object.assign(rig, await startStudioRig(serviceConfig));
  });
  test.afterAll(async () => {
    await rig.close();
  });
  return rig;
}

/** Signs in through the app (first run creates the account), then opens the first agent's studio. */
export async function signInAndOpen(page: Page, rig: StudioRig): Promise<Locator> {
  await signInThroughTheApp(page, rig.mode, EMAIL, PASSWORD);
  const service = rig.mode.service()!;
  const tokens = await apiSignIn(service, { email: EMAIL, password: PASSWORD });
  rig.accessToken = tokens.access_token;
  rig.api = createApiClient({ baseUrl: service.url, auth: staticTokenSource(tokens.access_token) });
  rig.agentId = await firstAgentId(service, tokens.access_token);
  await page.getByRole('button', { name: /^Configure agent/ }).click();
  await expect(page.getByRole('navigation', { name: 'Studio sections' })).toBeVisible();
  return page.getByRole('navigation', { name: 'Studio sections' });
}

/** Opens one section from the studio's list and returns its region. */
export async function openSection(page: Page, title: string): Promise<Locator> {
  await page
    .getByRole('navigation', { name: 'Studio sections' })
    .getByRole('button', { name: title })
    .click();
  const region = page.getByRole('region', { name: title, exact: true });
  await expect(region).toBeVisible();
  return region;
}

export async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screens, `studio-${name}.png`), fullPage: true });
}

/** The agent's configuration as the service holds it now. */
export async function heldConfig(rig: StudioRig, full = false) {
  const result = await rig.api.getAgentConfig(rig.agentId, { full });
  if (!result.ok) throw new Error(`GET agent failed: ${result.error.message}`);
  return result.value;
}
