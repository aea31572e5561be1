import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../src/browser/browser-mode';
import { createApiClient } from '../../src/core/api/api-client';
import { staticTokenSource } from '../../src/core/auth/access-token-source';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import { firstAgentId, signIn as apiSignIn } from '../support/local-service';
import { signInThroughTheApp } from './support/app-session';
import { openSyncPanel, syncState } from './support/sync-panel';

// Issue 26, item 1 in the app: a conflict settled by deleting the agent's copy, as people do in
// Dropbox or Syncthing. Browser mode (the built renderer, the bridge, the host and its sync engine)
// against the real local service, a real folder on disk; the agent's side checked through the API.
// Tokens live in a memory secret store (no OS keychain on a test machine).

const EMAIL = 'sync-notes@example.test';
const PASSWORD = 'a long enough password';

let scratch: string;
let mode: BrowserMode;

test.beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agentdesk-sync-notes-'));
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

test('deleting the conflict copy keeps mine, and the panel says so under Notes', async ({ page }) => {
  await signInThroughTheApp(page, mode, EMAIL, PASSWORD);
  const tokens = await apiSignIn(mode.service()!, { email: EMAIL, password: PASSWORD });
  const api = createApiClient({ baseUrl: mode.service()!.url, auth: staticTokenSource(tokens.access_token) });
  const agentId = await firstAgentId(mode.service()!, tokens.access_token);
  const root = join(scratch, 'Synced agent');
  const agentText = async () => {
    const read = await api.readWorkspaceFile(agentId, 'notes.txt');
    return read.ok && read.value.kind === 'bytes'
      ? Buffer.from(read.value.bytes).toString('utf8')
      : undefined;
  };

  // Both sides hold a different notes.txt before the first sync: a conflict.
  await mkdir(join(root, 'work'), { recursive: true });
  await writeFile(join(root, 'work', 'notes.txt'), 'mine\n');
  expect((await api.writeWorkspaceFile(agentId, 'notes.txt', Buffer.from('the agent’s\n'))).ok).toBe(true);
  const panel = await openSyncPanel(page);
  await panel.getByLabel('Folder path').fill(root);
  await panel.getByRole('button', { name: 'Sync this folder' }).click();
  const conflicts = panel.getByRole('list', { name: 'Conflicts' });
  await expect(conflicts.getByRole('listitem')).toHaveCount(1);
  const copy = (await readdir(join(root, 'work'))).find((name) => name.includes('.conflict-remote-'))!;

  // The person deletes the agent's copy in their file manager and edits their own file.
  await rm(join(root, 'work', copy));
  await writeFile(join(root, 'work', 'notes.txt'), 'mine, edited again\n');
  const notes = panel.getByRole('list', { name: 'Sync notes' });
  await expect(notes).toContainText(
    `Resolved work/notes.txt: kept mine, because the agent's copy (work/${copy}) was deleted. The agent's version is in the version history.`,
    { timeout: 20_000 },
  );
  await expect(panel.getByRole('list', { name: 'Conflicts' })).toHaveCount(0);
  await expect(syncState(panel)).toHaveText('Up to date');
  await expect.poll(agentText, { timeout: 15_000 }).toBe('mine, edited again\n');
  expect(await readFile(join(root, 'work', 'notes.txt'), 'utf8')).toBe('mine, edited again\n');
});
