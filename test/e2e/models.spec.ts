import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import { startOpenAiServer, type ScriptedProvider } from '../support/scripted-providers';
import { screens, showScreen } from './support/app-session';
import { ownerApi } from './support/owner-api';
import { signInToSpecOnly, startSpecOnlyApp, type SpecOnlyApp } from './support/spec-only-app';

// Real models on This computer (issue 37), in browser mode on the real local service, with a scripted
// provider speaking OpenAI's chat-completions protocol over real HTTP (test/support/scripted-providers):
// a provider added in Settings (a refused key in the service's words, then a good one with its models),
// its model picked in the studio, a chat with a permission that writes a file into the workspace; the
// welcome's "Use your own model"; a provider found at start; and a spec-only server that hides it all.
// Stand-in: the OS keychain (a memory store).

const KEY = 'test-key-openai-models-ui';
const MODELS = ['scripted-large', 'scripted-small'];
/** The first agent's configuration comes once its machine has started, the first time on a loaded machine slow. */
const FIRST_START = 45_000;

interface Rig {
  scratch: string;
  mode: BrowserMode;
  api(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

async function startRig(): Promise<Rig> {
  const scratch = await mkdtemp(join(tmpdir(), 'agentdesk-models-e2e-'));
  const mode = await startBrowserMode({
    dataDir: join(scratch, 'data'),
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
    secrets: createMemorySecretStore(),
  });
  return {
    scratch,
    mode,
    api: (path, init) => ownerApi(mode.service()!)(path, init),
    async close() {
      await mode.close();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

async function startHere(page: Page, rig: Rig): Promise<void> {
  await page.goto(rig.mode.url);
  await page.getByRole('button', { name: 'Start on this computer' }).click();
  await expect(page.getByRole('navigation', { name: 'Agents' })).toBeVisible();
}

async function firstAgent(rig: Rig): Promise<{ id: string; config: Record<string, unknown> }> {
  const list = (await (await rig.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  const id = list.agentes[0]!.id;
  return { id, config: (await (await rig.api(`/api/v2/agents/${id}`)).json()) as Record<string, unknown> };
}

interface About {
  engines: { id: string; name: string; offered?: boolean; onYourModels?: boolean }[];
}
const modelEngine = (config: Record<string, unknown>) =>
  (config['about'] as About).engines.find((e) => e.onYourModels)!;

/** The "Add a provider" form: another OpenAI-compatible server at the scripted provider's address. */
async function addProvider(page: Page, provider: ScriptedProvider, key: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Add a provider' });
  await form.getByRole('radio', { name: 'Another OpenAI-compatible server' }).check();
  await form.getByLabel('Key').fill(key);
  await form.getByLabel('Base URL').fill(provider.baseURL);
  await form.getByRole('button', { name: 'Add provider' }).click();
}

async function noSeriousAxe(page: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
    const result = await new AxeBuilder({ page }).analyze();
    for (const v of result.violations)
      if (v.impact === 'serious' || v.impact === 'critical')
        found.push(`${where} (${theme}) ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

test.describe('a provider added in Settings', () => {
  test.describe.configure({ mode: 'serial' });
  let rig: Rig;
  let provider: ScriptedProvider;
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    provider = await startOpenAiServer({ apiKey: KEY, models: MODELS });
    rig = await startRig();
    // A page of its own context, as axe asks.
    page = await (await browser.newContext()).newPage();
    await startHere(page, rig);
  });
  test.afterAll(async () => {
    await page.context().close();
    await rig.close();
    await provider.close();
  });

  test('a refused key shows the service’s words and is not kept; a good one lists its models, masked', async () => {
    await showScreen(page, 'Settings');
    const models = page.getByRole('region', { name: 'Models', exact: true });
    await expect(models).toContainText('No providers yet');
    await expect(page.getByRole('region', { name: 'Agent programs', exact: true })).toBeVisible();
    await models.getByRole('button', { name: 'Add a provider' }).click();

    await addProvider(page, provider, 'sk-wrong-key-0000');
    const refused = models.getByRole('form', { name: 'Add a provider' }).getByRole('alert');
    await expect(refused).toContainText(/refused this key \(401\)/);
    await expect(models.getByLabel('Key')).toHaveValue('');
    const none = (await (await rig.api('/api/v2/me/model-providers')).json()) as { proveedores: unknown[] };
    expect(none.proveedores).toEqual([]);

    await addProvider(page, provider, KEY);
    const row = models.getByRole('list', { name: 'Providers' }).getByRole('listitem').first();
    await expect(row).toContainText('Added here');
    await expect(row).toContainText('2 models');
    await row.getByText('Models', { exact: true }).click();
    await expect(row.getByRole('list', { name: /models$/ }).getByRole('listitem')).toHaveText(MODELS);
    // Only the masked key reaches the page: never the key itself, in the screen or the document.
    await expect(row).toContainText(/key \S*…\S*/);
    expect(await page.content()).not.toContain(KEY);
    await showScreen(page, 'Settings');
    await models.getByRole('button', { name: 'Add a provider' }).click();
    await page.screenshot({ path: join(screens, 'settings-models.png'), fullPage: true });
    expect(await noSeriousAxe(page, 'settings-models')).toEqual([]);
    await models.getByRole('button', { name: 'Cancel' }).click();
  });

  test('its model picked in the studio, grouped by provider; unoffered engines hidden, the demo agent named', async () => {
    const { id, config } = await firstAgent(rig);
    const engine = modelEngine(config);
    const hidden = (config['about'] as About).engines.filter((e) => e.offered === false);
    await showScreen(page, 'Chats');
    await page.getByRole('button', { name: /^Configure agent/ }).click();
    await page
      .getByRole('navigation', { name: 'Studio sections' })
      .getByRole('button', { name: 'Engine and model' })
      .click();
    const section = page.getByRole('region', { name: 'Engine and model', exact: true });
    await expect(
      section.getByRole('radio', { name: /^Demo agent \(offline, answers by rule\)/ }),
    ).toBeChecked();
    for (const e of hidden) await expect(section.getByRole('radio', { name: e.name })).toHaveCount(0);
    await expect(section).not.toContainText(/engine-[b-e]|house-lite/);

    await section
      .getByRole('radio', { name: new RegExp(`^${engine.name.replace(/[()]/g, '\\$&')}`) })
      .click();
    await page
      .getByRole('dialog', { name: `Switch to ${engine.name}?` })
      .getByRole('button', { name: 'Switch engine' })
      .click();
    await expect(
      section.getByRole('radio', { name: new RegExp(`^${engine.name.replace(/[()]/g, '\\$&')}`) }),
    ).toBeChecked();
    const picker = section.getByLabel('Model', { exact: true });
    await expect(picker.locator('optgroup')).toHaveCount(1);
    await expect(picker.locator('optgroup option')).toHaveText(MODELS);
    await picker.selectOption('scripted-small');
    await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Saved.');
    expect(
      await page.screenshot({ path: join(screens, 'studio-engines-models.png'), fullPage: true }),
    ).toBeTruthy();
    expect(await noSeriousAxe(page, 'studio-engine')).toEqual([]);
    const held = (await (await rig.api(`/api/v2/agents/${id}`)).json()) as { engine: string; model: string };
    expect(held).toMatchObject({ engine: engine.id, model: 'scripted-small' });
  });

  test('a chat on it: a permission answered, the file in the workspace, the model named in the header', async () => {
    const { id } = await firstAgent(rig);
    provider.reply(
      {
        toolCalls: [
          {
            name: 'write_file',
            input: { path: 'notes/from-model.md', content: 'Written by the scripted model\n' },
          },
        ],
      },
      { text: 'I wrote notes/from-model.md for you.' },
      // The title the agent asks for after its first reply, in Markdown as models write it.
      { text: '**Title:** A note *from* the `model`' },
    );
    await showScreen(page, 'Chats');
    await page.getByRole('button', { name: 'Start a new conversation' }).click();
    const header = page.getByRole('region', { name: 'Chat' }).getByLabel('Model', { exact: true });
    await expect(header.locator('option:checked')).toHaveText(/scripted-small · /);
    // Its whole name in the tooltip, where the header's room cuts it short.
    await expect(header).toHaveAttribute('title', /^scripted-small · .+: the model the next reply will use$/);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Write a note for me');
    await box.press('Enter');
    const reply = page.getByRole('article', { name: 'Agent reply' }).last();
    const card = reply.getByRole('region', { name: /Permission request/ });
    await expect(card).toBeVisible({ timeout: 30_000 });
    await card.getByRole('button', { name: 'Allow once' }).click();
    await expect(reply).toContainText('I wrote notes/from-model.md for you.', { timeout: 30_000 });
    await expect(reply).toHaveAttribute('aria-busy', 'false');
    // The provider was asked with the model picked, and the tool's result went back to it.
    const asked = provider.modelRequests().map((r) => (r.body as { model: string }).model);
    expect(asked.slice(0, 2)).toEqual(['scripted-small', 'scripted-small']);
    // Its title, as the words it reads as (the agent loads its Markdown reader at its first title).
    const current = page.getByRole('list', { name: 'Conversation list' }).locator('[aria-current="true"]');
    await expect(current).toContainText('A note from the model');

    await page.getByRole('button', { name: /^Configure agent/ }).click();
    await page
      .getByRole('navigation', { name: 'Studio sections' })
      .getByRole('button', { name: 'Workspace files' })
      .click();
    const tree = page.getByRole('tree', { name: 'Workspace files' });
    await tree
      .getByRole('treeitem', { name: /^notes/ })
      .first()
      .click();
    await expect(tree.getByRole('treeitem', { name: /from-model\.md/ })).toBeVisible();
    const file = await rig.api(`/api/v2/agents/${id}/files/notes/from-model.md`, {
      headers: { Accept: 'application/octet-stream' },
    });
    expect(await file.text()).toBe('Written by the scripted model\n');
  });
});

test.describe('the welcome', () => {
  let provider: ScriptedProvider;
  test.beforeAll(async () => {
    provider = await startOpenAiServer({ apiKey: KEY, models: MODELS });
  });
  test.afterAll(async () => {
    await provider.close();
  });

  test('“Use your own model”: add a provider, choose a model, and the first agent thinks with it', async ({
    page,
  }) => {
    const rig = await startRig();
    try {
      await startHere(page, rig);
      const offer = page.getByRole('region', { name: 'Use your own model' });
      // The offer waits for the agent's configuration, which the service reads from its freshly started machine.
      await expect(offer).toContainText('demo agent', { timeout: FIRST_START });
      expect(await noSeriousAxe(page, 'welcome-offer')).toEqual([]);
      await offer.getByRole('button', { name: 'Use your own model' }).click();
      await addProvider(page, provider, KEY);
      const choose = offer.getByLabel(/^Model from /);
      await expect(choose.locator('option')).toHaveText(MODELS);
      await choose.selectOption('scripted-large');
      await page.screenshot({ path: join(screens, 'welcome-own-model.png'), fullPage: true });
      expect(await noSeriousAxe(page, 'welcome-choose')).toEqual([]);
      await offer.getByRole('button', { name: 'Use this model' }).click();
      await expect(offer).toHaveCount(0);
      await expect(page.getByRole('region', { name: /^Welcome to / })).toContainText(
        /model scripted-large · /,
      );

      const { config } = await firstAgent(rig);
      expect(config).toMatchObject({ engine: modelEngine(config).id, model: 'scripted-large' });
    } finally {
      await rig.close();
    }
  });

  test('“Not now” keeps the demo agent, and the offer stays away after a reload', async ({ page }) => {
    const rig = await startRig();
    try {
      await startHere(page, rig);
      const offer = page.getByRole('region', { name: 'Use your own model' });
      await offer.getByRole('button', { name: 'Not now' }).click({ timeout: FIRST_START });
      await expect(offer).toHaveCount(0);
      await page.reload();
      await expect(page.getByRole('region', { name: /^Welcome to / })).toBeVisible();
      await expect(offer).toHaveCount(0);
      const { config } = await firstAgent(rig);
      expect(config['engine']).toBe('engine-b');
    } finally {
      await rig.close();
    }
  });

  test('a provider found at start: the first agent already uses it, no offer, and the model is named', async ({
    page,
  }) => {
    await withServiceEnvironment({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: provider.baseURL }, async () => {
      const rig = await startRig();
      try {
        await startHere(page, rig);
        const welcome = page.getByRole('region', { name: /^Welcome to / });
        await expect(welcome).toContainText(/model scripted-(large|small) · /, { timeout: FIRST_START });
        await expect(page.getByRole('region', { name: 'Use your own model' })).toHaveCount(0);
        await showScreen(page, 'Settings');
        await expect(page.getByRole('region', { name: 'Models', exact: true })).toContainText(
          'From the service’s environment',
        );
        expect(await page.content()).not.toContain(KEY);
      } finally {
        await rig.close();
      }
    });
  });

  test('a key in the environment the provider refuses: the demo agent stays, and the offer says why', async ({
    page,
  }) => {
    const oldKey = 'test-key-an-old-one-the-provider-no-longer-takes';
    await withServiceEnvironment({ OPENAI_API_KEY: oldKey, OPENAI_BASE_URL: provider.baseURL }, async () => {
      const rig = await startRig();
      try {
        await startHere(page, rig);
        const offer = page.getByRole('region', { name: 'Use your own model' });
        await expect(offer).toContainText('demo agent', { timeout: FIRST_START });
        await expect(offer).toContainText('refused this key (401)');
        await offer.getByRole('button', { name: 'Use your own model' }).click();
        await addProvider(page, provider, KEY);
        await offer.getByRole('button', { name: 'Use this model' }).click();
        await expect(offer).toHaveCount(0);
        expect(await page.content()).not.toContain(oldKey);
      } finally {
        await rig.close();
      }
    });
  });
});

/**
 * Runs `run` with these variables in this worker's environment, where the app's embedded service reads them
 * when the person starts on this computer; later specs of the worker start their service without them.
 */
async function withServiceEnvironment(vars: Record<string, string>, run: () => Promise<void>): Promise<void> {
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  Object.assign(process.env, vars);
  try {
    await run();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

test.describe('on a server that only follows the spec', () => {
  let app: SpecOnlyApp;
  test.beforeAll(async () => {
    app = await startSpecOnlyApp();
  });
  test.afterAll(async () => {
    await app.close();
  });

  test('no Settings → Models or Agent programs, no welcome offer, and nothing outside the spec asked', async ({
    page,
  }) => {
    await signInToSpecOnly(page, app);
    await expect(page.getByRole('region', { name: /^Welcome to |^Chat$/ }).first()).toBeVisible();
    await showScreen(page, 'Settings');
    await expect(page.getByRole('heading', { name: 'Appearance' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Models' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Agent programs' })).toHaveCount(0);
    await showScreen(page, 'Chats');
    await expect(page.getByRole('region', { name: 'Use your own model' })).toHaveCount(0);
    expect(app.spec.refused).toEqual([]);
  });
});
