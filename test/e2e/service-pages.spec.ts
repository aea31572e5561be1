import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/local-service';
import { freePort, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { screens } from './support/app-session';

// The service started alone (`npm run service`: src/service/cli.ts in its own process, with no app to trust)
// keeps its e-mail and password account. Its pages look like the app (light and dark) and say what is wrong
// in the page, next to the field, never in the browser's own bubble. The account is checked through the API.

const EMAIL = 'alone@example.test';
const PASSWORD = 'a long enough password';
let scratch: string;
let service: ServiceProcess;

test.beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agentdesk-service-pages-'));
  service = await startServiceProcess({ port: await freePort(), dataDir: join(scratch, 'data') });
});

test.afterAll(async () => {
  await service.kill('SIGTERM');
  await rm(scratch, { recursive: true, force: true });
});

test.describe.configure({ mode: 'serial' });

/** A light-theme colour of the app (src/renderer/ui/theme.css), as the browser reports it. */
async function appColour(name: string): Promise<string> {
  const theme = await readFile(resolve(import.meta.dirname, '../../src/renderer/ui/theme.css'), 'utf8');
  const hex = new RegExp(`${name}:\\s*#([0-9a-f]{6})`, 'i').exec(theme)?.[1];
  if (!hex) throw new Error(`theme.css has no ${name}`);
  const [r, g, b] = [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

/** The message tied to a field by `aria-describedby`, and the field's `aria-invalid`. */
async function fieldProblem(
  page: Page,
  label: string | RegExp,
): Promise<{ invalid: string | null; text: string }> {
  const field = page.getByLabel(label, { exact: true });
  const invalid = await field.getAttribute('aria-invalid');
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const texts = await Promise.all(
    ids.map(async (id) =>
      (await page.locator(`#${id}`).count()) ? await page.locator(`#${id}`).innerText() : '',
    ),
  );
  return { invalid, text: texts.join(' ').trim() };
}

test('first run of a service started alone: a styled page that says what is wrong next to each field', async ({
  page,
}) => {
  let dialogs = 0;
  page.on('dialog', () => dialogs++);
  await page.goto(`${service.url}/signin`);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  // The app's colours (read from the app's own theme.css) and its card, not the browser's default page.
  const card = page.locator('main');
  await expect(card).toHaveCSS('background-color', await appColour('--bg-side'));
  await expect(card).toHaveCSS('border-radius', '12px');
  await expect(page.getByRole('button', { name: 'Create account' })).toHaveCSS(
    'background-color',
    await appColour('--accent'),
  );
  await expect(page.locator('form')).toHaveAttribute('novalidate', '');

  // Nothing typed: the service answers with a sentence per field.
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Enter your e-mail address.')).toBeVisible();
  expect(await fieldProblem(page, 'E-mail')).toEqual({ invalid: 'true', text: 'Enter your e-mail address.' });
  expect(await fieldProblem(page, 'Password (at least 8 characters)')).toEqual({
    invalid: 'true',
    text: 'Use at least 8 characters.',
  });
  await page.screenshot({ path: join(screens, 'service-first-run-errors.png') });

  // Not an e-mail, then two passwords that differ; what was typed in the e-mail stays.
  await page.getByLabel('E-mail').fill('not an address');
  await page.getByLabel('Password (at least 8 characters)').fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  expect((await fieldProblem(page, 'E-mail')).text).toContain('does not look like an e-mail address');
  await expect(page.getByLabel('E-mail')).toHaveValue('not an address');
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password (at least 8 characters)').fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill('another long password');
  await page.getByRole('button', { name: 'Create account' }).click();
  expect(await fieldProblem(page, 'Repeat the password')).toEqual({
    invalid: 'true',
    text: 'The two passwords differ.',
  });
  expect((await fieldProblem(page, 'E-mail')).invalid).toBe('false');

  await page.getByLabel('Password (at least 8 characters)').fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  expect(dialogs).toBe(0);

  // Through the API: that account, with that password, signs in over PKCE.
  const tokens = await signIn({ url: service.url }, { email: EMAIL, password: PASSWORD });
  const me = await fetch(`${service.url}/api/v2/me/agents`, {
    headers: { Authorization: `Bearer ${tokens.access_token}` },
  });
  expect(((await me.json()) as { usuario: { email: string } }).usuario.email).toBe(EMAIL);
});

test('a wrong password is said in the page, with the e-mail kept; the dark theme follows the system', async ({
  browser,
}) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto(`${service.url}/signin`);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(28, 28, 30)');

  await page.getByRole('button', { name: 'Sign in' }).click();
  expect(await fieldProblem(page, 'Password')).toEqual({ invalid: 'true', text: 'Enter your password.' });

  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Wrong e-mail or password.');
  await expect(page.getByLabel('E-mail')).toHaveValue(EMAIL);
  await page.screenshot({ path: join(screens, 'service-sign-in-wrong-password-dark.png') });

  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await context.close();
});
