import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import { MEMORY_ONLY_WARNING } from '../../src/core/auth/secret-store';
import type { RunningService } from '../../src/service/index';
import { screens } from './support/app-session';
import { ownerApi } from './support/owner-api';
import { tokenFamilies } from '../support/store-query';

// The first run on "This computer", as `npm run web` starts it (the app's own service trusts the app that
// started it): a fresh data folder, one click, and the message box is ready. No account form, no password,
// no browser tab. Then, as a page in the same browser: the trust gave the browser nothing, and no request a
// page can make signs anyone in. Stand-in: the OS keychain (a memory store, as everywhere in e2e).

let scratch: string;
let mode: BrowserMode;

test.beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agentdesk-first-run-'));
  mode = await startBrowserMode({
    dataDir: join(scratch, 'data'),
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
    secrets: createMemorySecretStore(),
  });
});

test.afterAll(async () => {
  await mode.close();
  await rm(scratch, { recursive: true, force: true });
});

test.describe.configure({ mode: 'serial' });

const service = (): RunningService => mode.service()!;

const api = (path: string, init?: RequestInit) => ownerApi(service())(path, init);

test('a fresh data folder: "This computer", one click, and the message box is ready: no password anywhere', async ({
  page,
}) => {
  const popups: string[] = [];
  page.context().on('page', (opened) => popups.push(opened.url()));
  const started = Date.now();
  await page.goto(mode.url);
  await expect(page.getByRole('heading', { name: 'Welcome to AgentDesk' })).toBeVisible();
  await expect(page.getByLabel('This computer')).toBeChecked();
  await page.getByRole('button', { name: 'Start on this computer' }).click();

  const box = page.getByRole('textbox', { name: 'Message' });
  await expect(box).toBeVisible();
  await expect(box).toBeFocused();
  expect(Date.now() - started).toBeLessThan(60_000);
  await expect(
    page.getByRole('navigation', { name: 'Agents' }).getByRole('button', { name: /^Assistant/ }),
  ).toBeVisible();
  await page.screenshot({ path: join(screens, 'first-run-ready.png') });
  expect(popups).toEqual([]);
  await expect(page.getByLabel(/password/i)).toHaveCount(0);

  await box.fill('Hello on the first run');
  await box.press('Enter');
  await expect(page.getByRole('article', { name: 'Agent reply' }).last()).toContainText(
    'You said: "Hello on the first run"',
    { timeout: 30_000 },
  );

  // On the service: one owner, with no password, whose first agent holds that conversation.
  const { persons } = service().context.identity;
  expect(await persons.count()).toBe(1);
  expect(await persons.authenticate((await persons.first())!.email, '')).toBeNull();
  const listed = (await (await api('/api/v2/me/agents')).json()) as {
    agentes: { id: string; nombre: string }[];
  };
  expect(listed.agentes.map((a) => a.nombre)).toEqual(['Assistant']);
  const conversations = (await (
    await api(`/api/v2/me/agents/${listed.agentes[0]!.id}/conversations`)
  ).json()) as { conversaciones: unknown[] };
  expect(conversations.conversaciones).toHaveLength(1);

  // The account screen does not send this password-less owner to a page that would ask for a password.
  await page.getByRole('navigation', { name: 'App' }).getByRole('button', { name: 'Account' }).click();
  const keys = page.getByRole('region', { name: 'Access keys' });
  await expect(keys).toContainText('On this computer no tool needs one');
  await expect(page.getByRole('button', { name: /account page/ })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Account', exact: true })).not.toContainText(/password:/i);
});

test('the app’s trust gives the person’s browser nothing, and no page can use it', async ({
  page,
  context,
}) => {
  const url = service().url;
  // The person's own browser, on the service's pages: still asked to sign in (the app got no cookie).
  await page.goto(`${url}/account`);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  // A page of another site in the same browser tries every way it has.
  const familiesBefore = await tokenFamilies(service());
  await context.route('http://evil.example/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>evil</title><p>hello</p>' }),
  );
  const evil = await context.newPage();
  await evil.goto('http://evil.example/');
  const outcomes = await evil.evaluate(async (base) => {
    const tries: Record<string, string> = {};
    const attempt = async (name: string, run: () => Promise<Response>) => {
      try {
        const answer = await run();
        tries[name] = `${answer.status} ${answer.type} ${(await answer.text()).slice(0, 80)}`;
      } catch (error) {
        tries[name] = `blocked: ${(error as Error).name}`;
      }
    };
    const form = (fields: Record<string, string>) => new URLSearchParams(fields);
    await attempt('token-cors', () =>
      fetch(`${base}/oauth2/token`, {
        method: 'POST',
        body: form({ grant_type: 'client_credentials', client_id: 'agentdesk-desktop' }),
      }),
    );
    await attempt('token-no-cors', () =>
      fetch(`${base}/oauth2/token`, {
        method: 'POST',
        mode: 'no-cors',
        body: form({ grant_type: 'urn:agentdesk:launch', client_id: 'agentdesk-desktop' }),
      }),
    );
    await attempt('agents-with-cookies', () => fetch(`${base}/api/v2/me/agents`, { credentials: 'include' }));
    await attempt('authorize', () =>
      fetch(
        `${base}/oauth2/authorize?response_type=code&client_id=agentdesk-desktop&redirect_uri=${encodeURIComponent('http://127.0.0.1:45999/callback')}&scope=profile&state=s&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
        { credentials: 'include', redirect: 'manual' },
      ),
    );
    return tries;
  }, url);
  for (const [name, outcome] of Object.entries(outcomes)) {
    // Either the browser blocks it (CORS) or the answer is opaque or a refusal: never a token.
    expect(outcome, name).not.toContain('access_token');
    expect(outcome, name).not.toMatch(/^200 (basic|cors)/);
  }
  const familiesAfter = await tokenFamilies(service());
  expect(familiesAfter).toBe(familiesBefore);
  await evil.close();
});

test('reopening the app with no keychain goes straight to the chat: the choice of This computer was kept', async ({
  browser,
}) => {
  // The first run has ended, and its service with it (while it ran, a second one would join that service).
  await mode.close();
  // No keychain, as on this test machine: the tokens died with the last run, not the choice of where.
  const again = await startBrowserMode({
    dataDir: join(scratch, 'data'),
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
    secrets: createMemorySecretStore({ warning: MEMORY_ONLY_WARNING }),
  });
  try {
    const page = await browser.newPage();
    await page.goto(again.url);
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Welcome to AgentDesk' })).toHaveCount(0);
    await expect(page.getByText('Where are your agents?')).toHaveCount(0);
    expect(await again.service()!.context.identity.persons.count()).toBe(1);
    await expect(page.getByRole('region', { name: 'Conversations' })).toContainText('Hello on the first run');

    // Signing out by choice does show the question (for this run).
    await page.getByRole('navigation', { name: 'App' }).getByRole('button', { name: 'Account' }).click();
    await page.getByRole('region', { name: 'Signed in' }).getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome to AgentDesk' })).toBeVisible();
    // On This computer a sign-in costs one click: the card does not worry the person about where it is kept.
    await expect(page.getByText(/memory only/)).toHaveCount(0);
    // For another server it matters (a browser sign-in each start), said in a person's words.
    await page.getByLabel('Another server').check();
    const warning = page.getByText(/memory only/);
    await expect(warning).toHaveText(
      'No keychain is available on this computer, so your sign-in is kept in memory only and never written to disk: you will sign in again each time AgentDesk starts.',
    );
    await page.getByLabel('This computer').check();
    await expect(warning).toHaveCount(0);
    await page.getByRole('button', { name: 'Start on this computer' }).click();
    await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
    expect(await again.service()!.context.identity.persons.count()).toBe(1);
  } finally {
    await again.close();
  }
});
