import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import { freePort } from '../support/service-process';

// The first screen's "Another server", as a new user fills it in wrong: the README promises that a
// server address that does not answer, or has no sign-in page, is reported at once, and the form says
// what it needs in plain words before anything is tried. Browser mode (the built renderer, the bridge,
// the host) with a memory secret store (no OS keychain here); the "servers" are a closed port and a
// real HTTP server that has no sign-in page.

let dataDir: string;
let mode: BrowserMode;
let pageless: Server;
let pagelessUrl: string;

test.beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-sign-in-e2e-'));
  mode = await startBrowserMode({
    dataDir,
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
    secrets: createMemorySecretStore(),
  });
  pageless = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('nothing here');
  });
  await new Promise<void>((done) => pageless.listen(0, '127.0.0.1', done));
  pagelessUrl = `http://127.0.0.1:${(pageless.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await mode.close();
  await new Promise((done) => pageless.close(done));
  await rm(dataDir, { recursive: true, force: true });
});

async function tryServer(page: Page, address: string, clientId: string, ports = ''): Promise<void> {
  await page.goto(mode.url);
  await page.getByLabel('Another server').check();
  await page.getByLabel('Server address').fill(address);
  await page.getByLabel('Client id').fill(clientId);
  await page.getByLabel('Registered loopback ports (optional)').fill(ports);
  await page.getByRole('button', { name: 'Sign in with your browser' }).click();
}

test('the form says what is missing before anything is tried', async ({ page }) => {
  const alert = page.getByRole('alert');
  await tryServer(page, 'agents example', 'desk');
  await expect(alert).toHaveText('Enter the server address, for example https://agents.example.com.');
  await tryServer(page, 'http://agents.example.com', 'desk');
  await expect(alert).toHaveText(
    'The server address must start with https:// (plain http is only allowed on this computer).',
  );
  await tryServer(page, 'https://agents.example.com', '  ');
  await expect(alert).toHaveText('Enter the client id the server operator gave you.');
  await tryServer(page, 'https://agents.example.com', 'desk', '53682, 99999');
  await expect(alert).toHaveText('Ports must be whole numbers between 1 and 65535, separated by commas.');
  // Nothing was opened meanwhile: the person is still on the first screen.
  await expect(page.getByRole('heading', { name: 'Welcome to AgentDesk' })).toBeVisible();
});

test('a server that does not answer is reported at once, without opening a sign-in tab', async ({ page }) => {
  let opened = false;
  page.on('popup', () => (opened = true));
  const closed = `http://127.0.0.1:${await freePort()}`;
  await tryServer(page, closed, 'agentdesk-desktop');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText("Couldn't reach the service at", { timeout: 15_000 });
  await expect(alert).toContainText(closed.replace('http://', ''));
  // And what to do next.
  await expect(alert).toContainText('Check the address and that the server is running, then try again.');
  await expect(page.getByRole('button', { name: 'Sign in with your browser' })).toBeEnabled();
  expect(opened).toBe(false);
});

test('a server with no sign-in page is reported at once, naming the page it looked for', async ({ page }) => {
  let opened = false;
  page.on('popup', () => (opened = true));
  await tryServer(page, `${pagelessUrl}/tenant`, 'agentdesk-desktop');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(
    `The server refused its sign-in page ${pagelessUrl}/tenant/oauth2/authorize (HTTP 404).`,
  );
  await expect(page.getByRole('button', { name: 'Sign in with your browser' })).toBeEnabled();
  expect(opened).toBe(false);
});
