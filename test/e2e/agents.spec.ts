import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import { screens } from './support/app-session';
import { ownerApi } from './support/owner-api';
import { signInToSpecOnly, startSpecOnlyApp, type SpecOnlyApp } from './support/spec-only-app';

// Agents on "This computer" (our service's extension, docs/extensions.md): make one from a starting point,
// chat with it, rename it, delete it after a confirmation that says what goes. Every step is read back
// through the API. Against a spec-only server the app offers no New agent and no Delete, and asks that
// server for nothing outside the spec. Stand-in: the OS keychain (a memory store).

interface AgentItem {
  id: string;
  nombre: string;
}

test.describe('on this computer', () => {
  test.describe.configure({ mode: 'serial' });
  let scratch: string;
  let mode: BrowserMode;
  let page: Page;
  const api = (path: string, init?: RequestInit) => ownerApi(mode.service()!)(path, init);
  const agents = async () =>
    ((await (await api('/api/v2/me/agents')).json()) as { agentes: AgentItem[] }).agentes;
  const agentList = () => page.getByRole('navigation', { name: 'Agents' });

  test.beforeAll(async ({ browser }) => {
    scratch = await mkdtemp(join(tmpdir(), 'agentdesk-agents-e2e-'));
    mode = await startBrowserMode({
      dataDir: join(scratch, 'data'),
      rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
      secrets: createMemorySecretStore(),
    });
    page = await browser.newPage();
    await page.goto(mode.url);
    await page.getByRole('button', { name: 'Start on this computer' }).click();
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  });

  test.afterAll(async () => {
    await page.close();
    await mode.close();
    await rm(scratch, { recursive: true, force: true });
  });

  test('the only agent can be renamed but not deleted', async () => {
    // The server's extensions are known once New agent shows.
    await expect(agentList().getByRole('button', { name: '+ New agent' })).toBeVisible();
    await expect(agentList().getByRole('button', { name: 'Rename Assistant' })).toBeVisible();
    await expect(agentList().getByRole('button', { name: /^Delete / })).toHaveCount(0);
  });

  test('New agent from the Writer starting point: its own prompt, skills and conversations', async () => {
    await agentList().getByRole('button', { name: '+ New agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'New agent' });
    // A name is needed, said in words in the dialog.
    await dialog.getByRole('button', { name: 'Create agent' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Give the agent a name.');
    await dialog.getByRole('radio', { name: /Writer/ }).check();
    await expect(dialog.getByLabel('Name')).toHaveValue('Writer');
    await expect(dialog.getByRole('radio', { name: /Coder/ })).toBeVisible();
    await expect(dialog.getByRole('radio', { name: /Researcher/ })).toBeVisible();
    await page.screenshot({ path: join(screens, 'agents-new.png') });
    await dialog.getByRole('button', { name: 'Create agent' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(agentList().getByRole('button', { name: /^Writer/ })).toHaveAttribute(
      'aria-current',
      'true',
    );

    const listed = await agents();
    expect(listed.map((a) => a.nombre)).toEqual(['Assistant', 'Writer']);
    const writer = listed[1]!;
    const config = (await (await api(`/api/v2/agents/${writer.id}`)).json()) as {
      prompt: string;
      starters: string[];
    };
    expect(config.prompt).toContain('careful writer');
    expect(config.starters.length).toBeGreaterThan(0);
    const skills = (await (await api(`/api/v2/agents/${writer.id}/skills`)).json()) as {
      skills: { slug: string }[];
    };
    expect(skills.skills.map((s) => s.slug).sort()).toEqual(['meeting-notes', 'release-notes']);

    // Its own conversations: a message from its welcome lands in Writer's list, not the Assistant's.
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Hello, writer');
    await box.press('Enter');
    await expect(page.getByRole('article', { name: 'Agent reply' }).last()).toContainText('Hello, writer', {
      timeout: 30_000,
    });
    const conversationsOf = async (id: string) =>
      ((await (await api(`/api/v2/me/agents/${id}/conversations`)).json()) as { conversaciones: unknown[] })
        .conversaciones.length;
    expect(await conversationsOf(writer.id)).toBe(1);
    expect(await conversationsOf(listed[0]!.id)).toBe(0);
  });

  test('Rename changes the name on the server', async () => {
    await agentList().getByRole('button', { name: 'Rename Writer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename agent' });
    await dialog.getByLabel('New name').fill('Blog writer');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await expect(agentList().getByRole('button', { name: /^Blog writer/ })).toBeVisible();
    expect((await agents()).map((a) => a.nombre)).toEqual(['Assistant', 'Blog writer']);
  });

  test('Delete asks first, says what is lost, and then removes the agent and its files', async () => {
    const writer = (await agents())[1]!;
    const folder = join(scratch, 'data', 'local-service', 'agents', writer.id);
    await access(folder);

    await agentList().getByRole('button', { name: 'Delete Blog writer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Blog writer?' });
    await expect(dialog).toContainText('all of its conversations');
    await expect(dialog).toContainText('the files in its workspace');
    await page.screenshot({ path: join(screens, 'agents-delete.png') });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await agents()).map((a) => a.nombre)).toEqual(['Assistant', 'Blog writer']);

    await agentList().getByRole('button', { name: 'Delete Blog writer' }).click();
    await page
      .getByRole('dialog', { name: 'Delete Blog writer?' })
      .getByRole('button', { name: 'Delete agent' })
      .click();
    await expect(agentList().getByRole('button', { name: /^Blog writer/ })).toHaveCount(0);
    await expect(agentList().getByRole('button', { name: /^Assistant/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    expect((await agents()).map((a) => a.nombre)).toEqual(['Assistant']);
    expect((await api(`/api/v2/me/agents/${writer.id}/conversations`)).status).toBe(404);
    await expect(access(folder)).rejects.toThrow();
    // Back to one agent: no Delete.
    await expect(agentList().getByRole('button', { name: /^Delete / })).toHaveCount(0);
  });
});

test.describe('on a server that only follows the spec', () => {
  let app: SpecOnlyApp;
  test.beforeAll(async () => {
    app = await startSpecOnlyApp();
  });
  test.afterAll(async () => {
    await app.close();
  });

  test('no New agent and no Delete; Rename (the spec’s own) still works', async ({ page }) => {
    await signInToSpecOnly(page, app);
    // Once the app knows what the server offers (nothing of ours), nothing of the extension shows.
    const offered = await page.evaluate(async () => {
      const desk = (
        globalThis as unknown as { desk: { serverExtensions(): Promise<{ ok: boolean; value: string[] }> } }
      ).desk;
      return desk.serverExtensions();
    });
    expect(offered).toEqual({ ok: true, value: [] });
    const list = page.getByRole('navigation', { name: 'Agents' });
    await expect(list.getByRole('button', { name: /^Assistant/ })).toBeVisible();
    await expect(list.getByRole('button', { name: '+ New agent' })).toHaveCount(0);
    await expect(list.getByRole('button', { name: /^Delete / })).toHaveCount(0);

    await list.getByRole('button', { name: 'Rename Assistant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename agent' });
    await dialog.getByLabel('New name').fill('Helper');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await expect(list.getByRole('button', { name: /^Helper/ })).toBeVisible();
    const read = await app.api.getAgentConfig(app.agentId, {});
    expect(read.ok && read.value.name).toBe('Helper');
    expect(app.spec.refused).toEqual([]);
  });
});
