import { expect, test } from '@playwright/test';
import { DEFAULT_EMAIL, signIn, startTestService, type TestService } from '../support/local-service';

// A connector round trip in Chromium: the API hands out the start URL, the browser opens it on the built-in
// demo provider (its own loopback origin), the person allows access on the consent page, the provider
// redirects to the service's callback, and the API then reports the connector as connected.

let service: TestService;
let accessToken: string;

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${service.url}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${accessToken}`, ...(init.headers as Record<string, string>) },
  });

async function demoConnector(): Promise<{ conectado: boolean; disponible: boolean }> {
  const body = (await (await api('/api/v2/me/connectors')).json()) as {
    connectors: { id: string; conectado: boolean; disponible: boolean }[];
  };
  return body.connectors.find((c) => c.id === 'demo')!;
}

test.beforeAll(async () => {
  service = await startTestService();
  accessToken = (await signIn(service)).access_token;
});

test.afterAll(async () => {
  await service.cleanup();
});

test('the demo connector connects through a real browser round trip, and disconnects', async ({ page }) => {
  expect(await demoConnector()).toEqual(expect.objectContaining({ conectado: false, disponible: true }));
  const { url } = (await (await api('/api/v2/me/connectors/demo/start', { method: 'POST' })).json()) as {
    url: string;
  };

  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Connect the demo provider to AgentDesk?' })).toBeVisible();
  await page.getByRole('button', { name: 'Allow' }).click();

  await expect(page).toHaveURL(new RegExp(`^${service.url}/conectores/callback\\?`));
  await expect(page.getByRole('heading', { name: 'Demo provider (local) is connected' })).toBeVisible();
  expect((await demoConnector()).conectado).toBe(true);

  const personId = (await service.context.identity.persons.findByEmail(DEFAULT_EMAIL))!.id;
  const token = (await service.context.agentConfig.connectors.accessToken(personId, 'demo'))!;
  const userinfo = () =>
    fetch(service.context.agentConfig.demoProvider.userinfoEndpoint, {
      headers: { Authorization: `Bearer ${token}` },
    });
  expect((await userinfo()).status).toBe(200);

  expect((await api('/api/v2/me/connectors/demo', { method: 'DELETE' })).status).toBe(200);
  expect((await demoConnector()).conectado).toBe(false);
  expect((await userinfo()).status).toBe(401);
});

test('denying at the provider shows why and leaves it disconnected', async ({ page }) => {
  const { url } = (await (await api('/api/v2/me/connectors/demo/start', { method: 'POST' })).json()) as {
    url: string;
  };
  await page.goto(url);
  await page.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByRole('heading', { name: 'Not connected' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('access_denied');
  expect((await demoConnector()).conectado).toBe(false);
});
