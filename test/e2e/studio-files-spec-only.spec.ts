import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../src/browser/browser-mode';
import { createApiClient } from '../../src/core/api/api-client';
import { staticTokenSource } from '../../src/core/auth/access-token-source';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import {
  DEFAULT_EMAIL,
  DEFAULT_PASSWORD,
  ensurePerson,
  firstAgentId,
  signIn,
  startTestService,
  type TestService,
} from '../support/local-service';
import { startSpecOnlyServer, type SpecOnlyServer } from '../support/spec-only-server';
import { openSection, shoot } from './studio-support';

// The studio's workspace files against a server with exactly the spec (no byte route): the listing
// works, and opening a file says the server only lists files. Browser mode as elsewhere; the spec-only
// server sits in front of the real local service (test/support/spec-only-server.ts).

let service: TestService;
let spec: SpecOnlyServer;
let dataDir: string;
let mode: BrowserMode;

test.beforeAll(async () => {
  service = await startTestService();
  await ensurePerson(service);
  spec = await startSpecOnlyServer(service.url);
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-studio-spec-e2e-'));
  mode = await startBrowserMode({
    dataDir,
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
    secrets: createMemorySecretStore(),
  });
});
test.afterAll(async () => {
  await mode.close();
  await spec.close();
  await service.cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

test('workspace files on a spec-only server: listed with sizes, and opening one says the server only lists', async ({
  page,
}) => {
  const token = (await signIn(service)).access_token;
  const agentId = await firstAgentId(service, token);
  const api = createApiClient({ baseUrl: service.url, auth: staticTokenSource(token) });
  expect((await api.writeWorkspaceFile(agentId, 'menu.md', new TextEncoder().encode('# Menu\n'))).ok).toBe(
    true,
  );

  await page.goto(mode.url);
  await page.getByLabel('Another server').check();
  await page.getByLabel('Server address').fill(spec.url);
  await page.getByLabel('Client id').fill('agentdesk-desktop');
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign in with your browser' }).click();
  const tab = await popup;
  await tab.getByLabel('E-mail').fill(DEFAULT_EMAIL);
  await tab.getByLabel('Password').fill(DEFAULT_PASSWORD);
  await tab.getByRole('button', { name: 'Sign in' }).click();
  await expect(tab.getByRole('heading', { name: "You're signed in" })).toBeVisible();
  await tab.close();

  await page.getByRole('button', { name: /^Configure agent/ }).click();
  const section = await openSection(page, 'Workspace files');
  const tree = section.getByRole('tree', { name: 'Workspace files' });
  await expect(tree.getByRole('treeitem', { name: 'menu.md, 7 B' })).toBeVisible();
  await tree.getByRole('button', { name: 'View menu.md' }).click();
  await expect(
    section.getByRole('status').filter({ hasText: 'This server only lists workspace files' }),
  ).toBeVisible();
  await shoot(page, 'files-list-only');
  expect(spec.refused).toEqual([]);
});
