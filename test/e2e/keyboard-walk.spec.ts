import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import { signIn as apiSignIn } from '../support/local-service';
import { expectFocusKept, expectFocusShown, tabAndPress, tabTo } from './support/keyboard';
import { startWalkRig } from './support/new-user-walk';

// Issue 29, item 9: every flow by keyboard alone. Each step is a key press (Tab, Shift+Tab, arrows, Enter,
// Space, Escape, typing, the app's shortcuts); no click, no fill, no focus() from the test. At every Tab the
// focus must be drawn and on something; after every dialog it is back on the page, never on the body.
// Browser mode on the real local service and its demo agent; what the server keeps is checked through the
// API. Tokens live in a memory secret store (no OS keychain on a test machine).

const rendererDir = resolve(import.meta.dirname, '../../out/renderer');
const EMAIL = 'keys-only@example.test';
const PASSWORD = 'a long enough password';

test('the first run on This computer, by keyboard: Tab to Start, Enter, and the focus is in the app', async ({
  page,
}) => {
  const rig = await startWalkRig();
  try {
    await page.goto(rig.mode.url);
    const start = page.getByRole('button', { name: 'Start on this computer' });
    await expect(start).toBeVisible();
    await tabAndPress(page, start);
    await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
    // The first screen's message box takes the focus, so typing starts a conversation at once.
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
    await expectFocusShown(page);
  } finally {
    await rig.close();
  }
});

test.describe('with a password account', () => {
  test.describe.configure({ mode: 'serial' });
  let mode: BrowserMode;
  let scratch: string;
  let token = '';
  const api = async (path: string, init: RequestInit = {}) => {
    const service = mode.service()!;
    token ||= (await apiSignIn(service, { email: EMAIL, password: PASSWORD })).access_token;
    return fetch(`${service.url}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });
  };
  const agents = async () =>
    ((await (await api('/api/v2/me/agents')).json()) as { agentes: { id: string; nombre: string }[] })
      .agentes;

  test.beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'agentdesk-keys-'));
    mode = await startBrowserMode({
      rendererDir,
      dataDir: join(scratch, 'data'),
      secrets: createMemorySecretStore(),
      trustedLaunch: false,
    });
  });
  test.afterAll(async () => {
    await mode?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  test('sign in on the service page, then make, rename and delete an agent', async ({ page }) => {
    await page.goto(mode.url);
    const start = page.getByRole('button', { name: 'Start on this computer' });
    await expect(start).toBeVisible();
    const popup = page.waitForEvent('popup');
    await tabAndPress(page, start);
    const tab = await popup;
    // The service's own page: create the account by keyboard.
    await expect(tab.getByRole('button', { name: 'Create account' })).toBeVisible();
    await tabTo(tab, tab.getByLabel('E-mail'));
    await tab.keyboard.type(EMAIL);
    await tabTo(tab, tab.getByLabel('Password (at least 8 characters)'));
    await tab.keyboard.type(PASSWORD);
    await tabTo(tab, tab.getByLabel('Repeat the password'));
    await tab.keyboard.type(PASSWORD);
    await tab.keyboard.press('Enter');
    await expect(tab.getByRole('heading', { name: "You're signed in" })).toBeVisible();
    await tab.close();
    await page.bringToFront();
    await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
    // Back in the app, the focus is in its message box, as after a first run with no password.
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();

    // New agent: the dialog takes the focus on its name; Enter creates it.
    const list = page.getByRole('navigation', { name: 'Agents' });
    await tabAndPress(page, list.getByRole('button', { name: /New agent/ }), 'Enter', true);
    const dialog = page.getByRole('dialog', { name: 'New agent' });
    await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
    await page.keyboard.type('Keyboard helper');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expectFocusKept(page);
    await expect.poll(async () => (await agents()).map((a) => a.nombre)).toContain('Keyboard helper');
    await expect(list.getByRole('button', { name: /^Keyboard helper/ })).toHaveAttribute(
      'aria-current',
      'true',
    );

    // Rename it: the dialog's field, Enter, and the focus back on Rename.
    const rename = list.getByRole('button', { name: 'Rename Keyboard helper' });
    await tabAndPress(page, rename, 'Enter', true);
    const renameDialog = page.getByRole('dialog', { name: 'Rename agent' });
    await expect(renameDialog.getByRole('textbox')).toBeFocused();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Keys only');
    await page.keyboard.press('Enter');
    await expect(renameDialog).toBeHidden();
    await expectFocusKept(page, list.getByRole('button', { name: 'Rename Keys only' }));
    await expect.poll(async () => (await agents()).map((a) => a.nombre)).toContain('Keys only');

    // Escape leaves the delete dialog with nothing deleted, the focus on Delete again.
    const remove = list.getByRole('button', { name: 'Delete Keys only' });
    await tabAndPress(page, remove);
    const deleteDialog = page.getByRole('dialog', { name: 'Delete Keys only?' });
    await expect(deleteDialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(deleteDialog).toBeHidden();
    await expectFocusKept(page, remove);

    // Delete it: the focus lands on the agent now selected, in the list (its Delete is gone with one left).
    await page.keyboard.press('Enter');
    await expect(deleteDialog).toBeVisible();
    await tabAndPress(page, deleteDialog.getByRole('button', { name: 'Delete agent' }));
    await expect(deleteDialog).toBeHidden();
    await expect.poll(async () => (await agents()).length).toBe(1);
    const remaining = (await agents())[0]!;
    const row = list.getByRole('button', { name: new RegExp(`^${remaining.nombre}`) });
    await expect(row).toHaveAttribute('aria-current', 'true');
    await expect(row).toBeFocused();
    await expectFocusShown(page);
  });
});
