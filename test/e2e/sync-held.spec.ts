import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { createAgentToken } from '../support/local-service';
import { screens, showScreen, signInThroughTheApp, startApp, type AppSession } from './support/app-session';
import { openSyncPanel, syncState } from './support/sync-panel';
import { cliFromSource } from '../support/cli-source';

// The sync panel when another AgentDesk process holds the folder, and the version history's size
// cap. Browser mode (built renderer, bridge over its WebSocket, host, sync engine) against the real
// local service, a real folder on disk, and the real `agentdesk sync` CLI as its own process with
// an agent token made on the account page. Tokens live in a memory secret store (no OS keychain here).

const EMAIL = 'sync-held@example.test';
const repo = resolve(import.meta.dirname, '../..');

let app: AppSession;
let root: string;
let agentId: string;
let token: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: EMAIL });
  root = join(app.dataDir, '..', `held-${process.hrtime.bigint()}`, 'Held agent');
  const agents = (await (await app.api('/api/v2/me/agents')).json()) as { agentes: { id: string }[] };
  agentId = agents.agentes[0]!.id;
  token = await createAgentToken(app.service(), agentId, { email: EMAIL, password: app.password });
});

test.afterAll(async () => {
  await app.close();
});

/** `agentdesk sync …` as a person runs it, with a data folder of its own. */
function cli(args: string[]): { child: ChildProcess; output(): string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [...cliFromSource, 'sync', ...args], {
    cwd: repo,
    env: {
      ...process.env,
      AGENTDESK_DATA: join(app.dataDir, '..', 'cli-data'),
      AGENTDESK_SERVER: app.service().url,
      AGENTDESK_TOKEN: token,
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return { child, output: () => text, exited };
}

test('a folder the CLI holds is shown with who holds it, and taken over when the CLI stops', async ({
  page,
}) => {
  await page.goto(app.mode.url);
  const panel = await openSyncPanel(page);
  await panel.getByLabel('Folder path').fill(root);
  await panel.getByRole('button', { name: 'Sync this folder' }).click();
  await expect(syncState(panel)).toHaveText('Up to date');

  // Signed out, the app lets the folder go (the choice stays); the CLI takes it meanwhile.
  await showScreen(page, 'Account');
  await page.getByRole('region', { name: 'Signed in' }).getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Start on this computer' })).toBeVisible();
  const watcher = cli([root]);
  try {
    await expect.poll(watcher.output, { timeout: 20_000 }).toContain('Watching for changes');

    await signInThroughTheApp(page, app.mode, EMAIL, app.password);
    const held = await openSyncPanel(page);
    await expect(syncState(held)).toHaveText('Synced by another AgentDesk process');
    await expect(held.getByRole('region', { name: 'Sync status' }).getByRole('alert')).toContainText(
      `Another AgentDesk process is syncing this folder: agentdesk sync (command line), process ${watcher.child.pid}`,
    );
    await expect(page.getByRole('button', { name: /^Sync folder/ })).toContainText(
      'Synced by another AgentDesk process',
    );
    await expect(held.getByRole('button', { name: 'Pause' })).toHaveCount(0);
    await page.screenshot({ path: join(screens, 'sync-held.png') });
    // Trying again while the CLI runs says the same, plainly.
    await held.getByRole('button', { name: 'Try again' }).click();
    await expect(held.getByRole('button', { name: 'Try again' })).toBeEnabled();
    await expect(syncState(held)).toHaveText('Synced by another AgentDesk process');

    // The CLI stops: within the app's 10 s retry, the folder is the app's again, and it syncs.
    watcher.child.kill('SIGINT');
    await watcher.exited;
    await expect(syncState(held)).toHaveText('Up to date', { timeout: 25_000 });
    await expect(held.getByRole('button', { name: 'Pause' })).toBeVisible();
    await mkdir(join(root, 'work'), { recursive: true });
    await writeFile(join(root, 'work', 'after-cli.txt'), 'the app syncs it again\n');
    await expect
      .poll(
        async () => {
          const read = await app.api(`/api/v2/agents/${agentId}/files/after-cli.txt`, {
            headers: { Accept: 'application/octet-stream' },
          });
          return read.ok ? read.text() : undefined;
        },
        { timeout: 15_000 },
      )
      .toBe('the app syncs it again\n');
  } finally {
    watcher.child.kill('SIGKILL');
  }
});

test("the version history's size cap is shown in plain units, checked, and changed for the CLI too", async ({
  page,
}) => {
  await page.goto(app.mode.url);
  const panel = await openSyncPanel(page);
  const history = panel.getByRole('region', { name: 'Version history' });
  await expect(history).toContainText(/Using \d+(\.\d)? (B|kB|MB) of 1 GB/);

  await history.getByRole('button', { name: 'Change size cap…' }).click();
  const field = history.getByLabel('Keep at most (MB)');
  await expect(field).toHaveValue('1024');
  await field.fill('a lot');
  await field.press('Enter');
  await expect(history.getByRole('alert')).toHaveText(
    'Type a whole number of megabytes, from 1 to 1048576 (1 TB), for example 500.',
  );
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await field.fill('0');
  await history.getByRole('button', { name: 'Save' }).click();
  await expect(history.getByRole('alert')).toContainText('Type a whole number of megabytes');

  await field.fill('5');
  await history.getByRole('button', { name: 'Save' }).click();
  await expect(history.getByRole('status')).toHaveText('The history now keeps at most 5 MB.');
  await expect(history).toContainText(/Using \d+(\.\d)? (B|kB|MB) of 5 MB/);
  await page.screenshot({ path: join(screens, 'sync-history-cap.png') });

  // The cap is the folder's, so the CLI reads the same one.
  const listed = cli(['history', root]);
  expect(await listed.exited).toBe(0);
  expect(listed.output()).toMatch(/The history holds \d+(\.\d)? (B|kB|MB) of at most 5 MB/);

  // And after a reload the panel still says so.
  await page.reload();
  const again = await openSyncPanel(page);
  await expect(again.getByRole('region', { name: 'Version history' })).toContainText(/ of 5 MB/);
});

test('files the sync cannot carry are listed with the reason; pause and resume; many deletions brought back; stop syncing asks first and keeps the files', async ({
  page,
}) => {
  await page.goto(app.mode.url);
  const panel = await openSyncPanel(page);
  await expect(syncState(panel)).toHaveText('Up to date');

  // An empty file and a file outside the agent's layout: listed, never an error.
  await writeFile(join(root, 'work', 'empty.txt'), '');
  await writeFile(join(root, 'notes-at-the-top.txt'), 'not a place the agent has\n');
  await panel.getByRole('button', { name: 'Sync now' }).click();
  const notSynced = panel.getByRole('list', { name: 'Not synced' });
  await expect(notSynced.getByRole('listitem')).toHaveCount(2);
  await expect(notSynced.getByRole('listitem').filter({ hasText: 'work/empty.txt' })).toContainText(
    'the agent cannot store an empty file',
  );
  await expect(notSynced.getByRole('listitem').filter({ hasText: 'notes-at-the-top.txt' })).toContainText(
    'Not a place the agent has',
  );
  await expect(syncState(panel)).toHaveText('Up to date');
  await page.screenshot({ path: join(screens, 'sync-not-synced.png') });

  // Pause and resume from the keyboard.
  await panel.getByRole('button', { name: 'Pause' }).focus();
  await page.keyboard.press('Enter');
  await expect(syncState(panel)).toHaveText('Paused');
  await panel.getByRole('button', { name: 'Resume' }).focus();
  await page.keyboard.press('Enter');
  await expect(syncState(panel)).toHaveText('Up to date');

  // Many files deleted here by mistake: the sync waits, and brings them back instead of deleting them.
  const names = Array.from({ length: 22 }, (_, i) => `batch-${i}.txt`);
  for (const name of names) {
    const put = await app.api(`/api/v2/agents/${agentId}/files/${name}`, {
      method: 'PUT',
      body: `kept ${name}`,
    });
    expect(put.ok).toBe(true);
  }
  await panel.getByRole('button', { name: 'Sync now' }).click();
  const allHere = async () =>
    (await Promise.all(names.map((n) => readFile(join(root, 'work', n), 'utf8').catch(() => '')))).every(
      (text, i) => text === `kept ${names[i]}`,
    );
  await expect.poll(allHere, { timeout: 15_000 }).toBe(true);
  await expect(syncState(panel)).toHaveText('Up to date');
  // All at once, as a file manager deletes a selection: paused meanwhile, since one by one on a busy
  // machine a cycle started by the first removals carried those out before the rest made it a mass
  // deletion (a fresh run saw "18 of 21"). Resume syncs at once.
  await panel.getByRole('button', { name: 'Pause' }).click();
  await expect(syncState(panel)).toHaveText('Paused');
  for (const name of names) await rm(join(root, 'work', name));
  await panel.getByRole('button', { name: 'Resume' }).click();
  const deletes = panel.getByRole('alert', { name: 'Confirm deletions' });
  await expect(deletes).toContainText('This sync would delete 22 of');
  await page.screenshot({ path: join(screens, 'sync-pending-deletes.png') });
  await deletes.getByRole('button', { name: 'Bring the 22 files back' }).click();
  await expect(deletes).toHaveCount(0);
  await expect(syncState(panel)).toHaveText('Up to date');
  await expect.poll(allHere, { timeout: 15_000 }).toBe(true);

  // Stop syncing asks first (Escape keeps syncing); confirmed, both sides keep their files.
  await panel.getByRole('button', { name: 'Stop syncing' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop syncing this folder?' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(syncState(panel)).toHaveText('Up to date');
  await panel.getByRole('button', { name: 'Stop syncing' }).click();
  await dialog.getByRole('button', { name: 'Stop syncing' }).click();
  await expect(panel.getByRole('button', { name: 'Sync this folder' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Sync folder/ })).toContainText('Not set up');
  expect(await readFile(join(root, 'work', 'after-cli.txt'), 'utf8')).toBe('the app syncs it again\n');
  const read = await app.api(`/api/v2/agents/${agentId}/files/after-cli.txt`, {
    headers: { Accept: 'application/octet-stream' },
  });
  expect(await read.text()).toBe('the app syncs it again\n');
});
