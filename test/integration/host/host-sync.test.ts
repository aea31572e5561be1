import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/core/api/api-client';
import { staticTokenSource } from '../../../src/core/auth/access-token-source';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import type { SecretStore } from '../../../src/core/auth/secret-store';
import { createHost, type DeskHost } from '../../../src/core/host';
import { startService, type RunningService } from '../../../src/service/index';
import type { SyncFolderStatus } from '../../../src/shared/bridge';
import { signIn } from '../../support/local-service';
import { personBrowser } from '../../support/person-browser';

// The host's sync methods against the real local service (started by the host as "this computer"),
// the demo agent and real folders. Stand-ins: the person's browser (a cookie-keeping HTTP client that
// walks the sign-in pages), the OS file manager (openPath records what it was asked to open: no
// desktop here) and the OS trash (a folder of the test's own).

let dir: string;
let home: string;
let secrets: SecretStore;
let opened: string[];
const hosts: DeskHost[] = [];
let service: RunningService | undefined;

const waitFor = async <T>(check: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> => {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

async function openHost(): Promise<DeskHost> {
  const trashDir = join(dir, 'trash');
  const host = await createHost({
    dataDir: join(dir, 'data'),
    secrets,
    openBrowser: personBrowser(() => service!),
    startEmbeddedService: async ({ dataDir }) => {
      service = await startService({ dataDir, port: 0 });
      return service;
    },
    os: {
      platform: { os: 'linux', shell: 'browser', modifierKey: 'Ctrl' },
      notify: () => {},
      openExternal: () => {},
      openPath: (path) => {
        opened.push(path);
      },
    },
    // No timer: only the hints of conversation streams (and the watcher) start a sync here.
    sync: {
      home,
      remoteIntervalMs: 0,
      debounceMs: 50,
      trash: async (path) => {
        await mkdir(trashDir, { recursive: true });
        await rename(path, join(trashDir, basename(path)));
      },
    },
  });
  hosts.push(host);
  return host;
}

async function signedInHost(): Promise<{ host: DeskHost; agentId: string }> {
  const host = await openHost();
  await host.addLocalProfile();
  expect((await host.signIn()).ok).toBe(true);
  const agents = await host.listAgents();
  if (!agents.ok) throw new Error(agents.error.message);
  return { host, agentId: agents.value.agents[0]!.id };
}

const value = <T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdesk-host-sync-'));
  home = join(dir, 'home');
  secrets = createMemorySecretStore();
  opened = [];
});

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  service = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe('sync through the host', { timeout: 60_000 }, () => {
  it('offers ~/AgentDesk/<agent name>, syncs it both ways, and pushes status to listeners', async () => {
    const { host, agentId } = await signedInHost();
    const pushed: SyncFolderStatus[] = [];
    const stop = host.onSyncStatus((state) => pushed.push(state));

    expect(value(await host.listSyncFolders())).toEqual([]);
    const choice = value(await host.getSyncFolder(agentId));
    expect(choice.folder).toBeNull();
    expect(choice.canPickFolder).toBe(false);
    expect(choice.defaultRoot.startsWith(join(home, 'AgentDesk'))).toBe(true);
    expect(await host.pickSyncFolder()).toMatchObject({ ok: false, error: { code: 'not_available' } });

    const folder = value(await host.setSyncFolder(agentId));
    expect(folder).toMatchObject({ agentId, root: choice.defaultRoot, status: { state: 'idle' } });
    expect(folder.status.lastSyncAt).toBeGreaterThan(0);
    // The marker names the agent and the folder's shared state file (so the app and the CLI agree).
    expect(JSON.parse(await readFile(join(folder.root, '.agentdesk'), 'utf8'))).toEqual({
      agentId,
      state: expect.stringContaining(agentId),
    });
    expect(await readFile(join(folder.root, 'instructions.md'), 'utf8')).toBeDefined();
    expect(pushed.some((s) => s.agentId === agentId && s.status.state === 'scanning')).toBe(true);
    expect(pushed.at(-1)).toMatchObject({ agentId, status: { state: 'idle' } });

    // Local edit -> the agent's workspace, seen through the API as another client.
    const tokens = await signIn(service!);
    const api = createApiClient({ baseUrl: service!.url, auth: staticTokenSource(tokens.access_token) });
    await mkdir(join(folder.root, 'work'), { recursive: true });
    await writeFile(join(folder.root, 'work', 'from-disk.txt'), 'edited on disk\n');
    await waitFor(async () => {
      const read = await api.readWorkspaceFile(agentId, 'from-disk.txt');
      return (
        read.ok &&
        read.value.kind === 'bytes' &&
        Buffer.from(read.value.bytes).toString() === 'edited on disk\n'
      );
    }, 'the local file in the workspace');

    // Opening: the folder in the file manager, the instructions in the editor.
    expect(await host.openSyncFolder(agentId, 'folder')).toEqual({ ok: true, value: undefined });
    expect(await host.openSyncFolder(agentId, 'editor')).toEqual({ ok: true, value: undefined });
    expect(opened).toEqual([folder.root, join(folder.root, 'instructions.md')]);

    stop();
    const before = pushed.length;
    value(await host.syncNow(agentId));
    expect(pushed.length).toBe(before);
  });

  it("re-lists the agent's files when a conversation stream the renderer opened ends a turn", async () => {
    const { host, agentId } = await signedInHost();
    const root = join(dir, 'synced');
    value(await host.setSyncFolder(agentId, root));
    const sessionId = value(await host.createConversation(agentId)).id;
    const stop = host.onConversationEvent(agentId, sessionId, () => {});

    value(
      await host.sendMessage(agentId, sessionId, {
        content: 'write from-agent.md\n```\nwritten by the agent\n```',
        permissionMode: 'auto',
      }),
    );
    // The engine's timer is off: only the stream's `tool`/`done` hints can bring the file down.
    const text = await waitFor(
      () => readFile(join(root, 'work', 'from-agent.md'), 'utf8').catch(() => undefined),
      'the agent-written file on disk',
    );
    expect(text).toBe('written by the agent');
    stop();
  });

  it('pauses, resumes, stops, refuses what it cannot do in plain words, and restarts remembered folders', async () => {
    const { host, agentId } = await signedInHost();
    expect(await host.pauseSync(agentId)).toMatchObject({ ok: false, error: { code: 'sync_not_set_up' } });
    expect(await host.setSyncFolder(agentId, 'relative/path')).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringContaining('full path') },
    });
    expect(await host.setSyncFolder(agentId, home)).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    expect(await host.setSyncFolder('no-such-agent', join(dir, 'x'))).toMatchObject({ ok: false });
    expect(await host.resolveSyncConflict(agentId, 'k', 'maybe' as never)).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });

    const root = join(dir, 'synced');
    value(await host.setSyncFolder(agentId, root));
    expect(value(await host.pauseSync(agentId)).status.state).toBe('paused');
    await mkdir(join(root, 'work'), { recursive: true });
    await writeFile(join(root, 'work', 'while-paused.txt'), 'x');
    expect(value(await host.syncNow(agentId)).status.state).toBe('paused');
    expect(value(await host.resumeSync(agentId)).status.state).toBe('idle');

    // A new run of the app: signed in again from the saved tokens, the folder starts by itself.
    await host.close();
    hosts.splice(hosts.indexOf(host), 1);
    const again = await openHost();
    const folders = await waitFor(async () => {
      const listed = await again.listSyncFolders();
      return listed.ok && listed.value.length > 0 ? listed.value : undefined;
    }, 'the remembered folder');
    expect(folders[0]).toMatchObject({ agentId, root });

    // Signing out stops every folder; the choice stays for next time.
    const pushed: SyncFolderStatus[] = [];
    again.onSyncStatus((state) => pushed.push(state));
    await again.signOut();
    expect(await again.listSyncFolders()).toMatchObject({ ok: false, error: { code: 'signed_out' } });
    await waitFor(() => pushed.some((s) => s.status.state === 'stopped'), 'the stopped status');
    expect((await stat(join(dir, 'data', 'profiles', 'local', 'sync', 'folders.json'))).isFile()).toBe(true);

    expect(await again.stopSync(agentId)).toMatchObject({ ok: false, error: { code: 'signed_out' } });
  });

  it("shows the version history's use and cap, changes the cap, and refuses a bad one in plain words", async () => {
    const { host, agentId } = await signedInHost();
    expect(await host.getSyncHistoryUse(agentId)).toMatchObject({
      ok: false,
      error: { code: 'sync_not_set_up' },
    });
    value(await host.setSyncFolder(agentId, join(dir, 'synced')));
    expect(value(await host.getSyncHistoryUse(agentId))).toEqual({ usedBytes: 0, capBytes: 1024 ** 3 });

    for (const bad of [0, 1024, 2.5 * 1024 * 1024, -1, 2 * 1024 ** 4, '500' as never, Number.NaN]) {
      expect(await host.setSyncHistoryCap(agentId, bad)).toEqual({
        ok: false,
        error: {
          code: 'invalid_argument',
          message: 'The history size must be a whole number of MB, from 1 MB to 1,048,576 MB (1 TB).',
        },
      });
    }
    expect(value(await host.setSyncHistoryCap(agentId, 5 * 1024 * 1024))).toEqual({
      usedBytes: 0,
      capBytes: 5 * 1024 * 1024,
    });
    // The cap is the folder's: a new run of the app reads the same one.
    await host.close();
    hosts.splice(hosts.indexOf(host), 1);
    const again = await openHost();
    await waitFor(async () => {
      const use = await again.getSyncHistoryUse(agentId);
      return use.ok ? use.value.capBytes === 5 * 1024 * 1024 : undefined;
    }, 'the cap after a restart');
  });
});
