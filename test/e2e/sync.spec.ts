import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../src/browser/browser-mode';
import { createApiClient, type ApiClient } from '../../src/core/api/api-client';
import { staticTokenSource } from '../../src/core/auth/access-token-source';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import { firstAgentId, signIn as apiSignIn } from '../support/local-service';
import { signInThroughTheApp } from './support/app-session';
import { newConversation } from './support/chat-page';
import { openSyncPanel, syncState } from './support/sync-panel';

// Sync end to end: browser mode (the built renderer from `npm run build`, the bridge over its
// WebSocket, the host and its sync engine) against the real local service and its demo agent, with
// a real folder on disk. The agent's side is checked through the API as a second client of the
// same person. Tokens live in a memory secret store (no OS keychain on a test machine).

const EMAIL = 'sync@example.test';
const PASSWORD = 'a long enough password';
const screens = resolve(import.meta.dirname, '../../test-results/screens');

let scratch: string;
let root: string;
let mode: BrowserMode;
let api: ApiClient;
let agentId: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  await mkdir(screens, { recursive: true });
  scratch = await mkdtemp(join(tmpdir(), 'agentdesk-sync-e2e-'));
  root = join(scratch, 'Synced agent');
  mode = await startBrowserMode({
    dataDir: join(scratch, 'data'),
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
    secrets: createMemorySecretStore(),
    trustedLaunch: false,
  });
});

test.afterAll(async () => {
  await mode.close();
  await rm(scratch, { recursive: true, force: true });
});

/** The last sync time the panel shows, from its <time datetime>. */
const lastSynced = async (panel: Locator): Promise<number> =>
  Date.parse((await panel.locator('time').getAttribute('datetime')) ?? '');

async function workspaceText(path: string): Promise<string | undefined> {
  const read = await api.readWorkspaceFile(agentId, path);
  return read.ok && read.value.kind === 'bytes' ? Buffer.from(read.value.bytes).toString('utf8') : undefined;
}

test('a file saved in the synced folder reaches the workspace; a file the agent writes reaches the disk and the panel', async ({
  page,
}) => {
  await signInThroughTheApp(page, mode, EMAIL, PASSWORD);
  const tokens = await apiSignIn(mode.service()!, { email: EMAIL, password: PASSWORD });
  api = createApiClient({ baseUrl: mode.service()!.url, auth: staticTokenSource(tokens.access_token) });
  agentId = await firstAgentId(mode.service()!, tokens.access_token);

  // Browser mode has no folder picker: a path field, prefilled with ~/AgentDesk/<agent name>.
  const panel = await openSyncPanel(page);
  await expect(page.getByRole('button', { name: /^Sync folder/ })).toContainText('Not set up');
  const field = panel.getByLabel('Folder path');
  await expect(field).toHaveValue(/AgentDesk[/\\].+/);
  await expect(panel.getByRole('button', { name: 'Browse…' })).toHaveCount(0);
  await page.screenshot({ path: join(screens, 'sync-choose.png') });
  await field.fill(root);
  await panel.getByRole('button', { name: 'Sync this folder' }).click();
  await expect(syncState(panel)).toHaveText('Up to date');
  await expect(panel.getByRole('region', { name: 'Folder' })).toContainText(root);
  // The marker names the agent and the folder's state, which the CLI then shares.
  expect(JSON.parse(await readFile(join(root, '.agentdesk'), 'utf8'))).toMatchObject({
    agentId,
    state: expect.stringContaining(join('data', 'profiles')),
  });

  // Saved on disk -> in the agent's workspace.
  await mkdir(join(root, 'work'), { recursive: true });
  await writeFile(join(root, 'work', 'from-disk.txt'), 'saved in my editor\n');
  await expect.poll(() => workspaceText('from-disk.txt'), { timeout: 15_000 }).toBe('saved in my editor\n');
  const afterUpload = await lastSynced(panel);
  expect(afterUpload).toBeGreaterThan(0);

  // The demo agent writes a file in a chat (permission approved in the app) -> on disk.
  await panel.getByRole('button', { name: 'Back to chat' }).click();
  await newConversation(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('write from-agent.md\n```\nwritten by the demo agent\n```');
  await box.press('Enter');
  const card = page.getByRole('region', { name: /Permission request: Write from-agent\.md/ });
  await card.getByRole('button', { name: 'Allow once' }).click();
  // The turn's `done` on the chat's own stream makes the host re-list (its timer is 30 s away).
  await expect
    .poll(() => readFile(join(root, 'work', 'from-agent.md'), 'utf8').catch(() => undefined), {
      timeout: 15_000,
    })
    .toBe('written by the demo agent');

  // ... and in the sync panel: a newer last sync, up to date.
  const again = await openSyncPanel(page);
  await expect(syncState(again)).toHaveText('Up to date');
  await expect.poll(() => lastSynced(again)).toBeGreaterThan(afterUpload);
  await expect(again.locator('time')).toHaveText(/^Last synced (just now|\d+ min ago)$/);
  await page.screenshot({ path: join(screens, 'sync-panel.png') });
});

test('a file changed on both sides while paused becomes a conflict, settled with keep both', async ({
  page,
}) => {
  await page.goto(mode.url);
  const panel = await openSyncPanel(page);
  await expect(syncState(panel)).toHaveText('Up to date');

  await panel.getByRole('button', { name: 'Pause' }).click();
  await expect(syncState(panel)).toHaveText('Paused');
  await expect(page.getByRole('button', { name: /^Sync folder/ })).toContainText('Paused');
  await writeFile(join(root, 'work', 'from-disk.txt'), 'my edit\n');
  const remote = await api.writeWorkspaceFile(agentId, 'from-disk.txt', Buffer.from('the agent edit\n'));
  expect(remote.ok).toBe(true);

  await panel.getByRole('button', { name: 'Resume' }).click();
  const conflicts = panel.getByRole('list', { name: 'Conflicts' });
  await expect(conflicts.getByRole('listitem')).toHaveCount(1);
  await expect(conflicts).toContainText('work/from-disk.txt');
  await expect(syncState(panel)).toHaveText('Up to date except 1 conflict');
  await expect(page.getByRole('button', { name: /^Sync folder/ })).toContainText('1 conflict to resolve');
  // Nothing overwritten on either side while the conflict is open.
  expect(await readFile(join(root, 'work', 'from-disk.txt'), 'utf8')).toBe('my edit\n');
  expect(await workspaceText('from-disk.txt')).toBe('the agent edit\n');
  await page.screenshot({ path: join(screens, 'sync-conflict.png') });

  await conflicts
    .getByRole('group', { name: 'Resolve work/from-disk.txt' })
    .getByRole('button', { name: 'Keep both' })
    .click();
  await expect(panel.getByRole('list', { name: 'Conflicts' })).toHaveCount(0);
  await expect(syncState(panel)).toHaveText('Up to date');
  // The agent's version took the path; mine lives on beside it, on both sides.
  expect(await readFile(join(root, 'work', 'from-disk.txt'), 'utf8')).toBe('the agent edit\n');
  const listing = await api.listWorkspace(agentId, '');
  const names = listing.ok ? listing.value.files.map((f) => f.path) : [];
  const mine = names.filter((n) => n !== 'from-disk.txt' && n.startsWith('from-disk'));
  expect(mine).toHaveLength(1);
  expect(await workspaceText(mine[0]!)).toBe('my edit\n');
});

test('the version history lists what the sync replaced, and puts a version back on both sides', async ({
  page,
}) => {
  await page.goto(mode.url);
  const panel = await openSyncPanel(page);
  await expect(syncState(panel)).toHaveText('Up to date');

  // The agent rewrites its file: the sync replaces the local copy, keeping the old version.
  const rewrite = await api.writeWorkspaceFile(
    agentId,
    'from-agent.md',
    Buffer.from('rewritten by the agent'),
  );
  expect(rewrite.ok).toBe(true);
  await panel.getByRole('button', { name: 'Sync now' }).click();
  await expect
    .poll(() => readFile(join(root, 'work', 'from-agent.md'), 'utf8').catch(() => undefined))
    .toBe('rewritten by the agent');

  const history = panel.getByRole('region', { name: 'Version history' });
  await history.getByRole('button', { name: 'Show kept versions' }).click();
  await history.getByLabel('Find a file').fill('from-agent');
  const versions = history.getByRole('list', { name: 'Kept versions' }).getByRole('listitem');
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toContainText("the agent's");
  await page.screenshot({ path: join(screens, 'sync-history.png') });

  // The older one (newest first) goes back in the folder, and on to the agent.
  await versions.nth(1).getByRole('button', { name: 'Restore' }).click();
  await expect
    .poll(() => readFile(join(root, 'work', 'from-agent.md'), 'utf8').catch(() => undefined))
    .toBe('written by the demo agent');
  await expect
    .poll(() => workspaceText('from-agent.md'), { timeout: 15_000 })
    .toBe('written by the demo agent');
  // The version it replaced is kept too.
  await expect(versions).toHaveCount(3);
});
