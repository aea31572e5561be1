import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import type { SecretStore } from '../../../src/core/auth/secret-store';
import type { DeskHost } from '../../../src/core/host';
import { memoryFile } from '../../../src/core/host/memory/profile-memory';
import { startService, type RunningService } from '../../../src/service/index';
import type { Connectivity, ConversationUpdate } from '../../../src/shared/bridge';
import { hasTurnEnded } from '../../support/conversation-updates';
import { personBrowser } from '../../support/person-browser';
import { anotherServerHost } from '../../support/another-server-host';

// The host's memory against the real local service over real HTTP and SSE, with real SQLite files.
// The service runs apart from the host ("another server"), so the test can stop it and bring it back
// on the same address. The person's browser is a cookie-keeping HTTP client, as in host.test.ts.

let dir: string;
let serviceDir: string;
let secrets: SecretStore;
let service: RunningService;
const hosts: DeskHost[] = [];

async function openHost(dataDir = dir): Promise<DeskHost> {
  const host = await anotherServerHost({
    dataDir,
    secrets,
    openBrowser: personBrowser(() => service),
  });
  hosts.push(host);
  return host;
}

async function signedInHost(dataDir = dir): Promise<DeskHost> {
  const host = await openHost(dataDir);
  await host.addCustomProfile({ baseUrl: service.url, clientId: 'agentdesk-desktop' });
  const signedIn = await host.signIn();
  expect(signedIn.ok).toBe(true);
  return host;
}

/** The first agent on an ACP engine (the demo agent the cases talk to). */
async function acpAgentId(host: DeskHost): Promise<string> {
  const agents = await host.listAgents();
  return agents.ok ? agents.value.agents.find((a) => a.protocol === 'acp')!.id : '';
}

/** Sends a message and answers every permission with its first option, until the turn is done. */
async function runTurn(host: DeskHost, agentId: string, sessionId: string, content: string, attach = false) {
  const updates: ConversationUpdate[] = [];
  const stop = host.onConversationEvent(agentId, sessionId, (u) => {
    updates.push(u);
    if (u.kind === 'event' && u.event.event === 'permission') {
      const { id, options } = u.event.data;
      void host.answerPermission(agentId, sessionId, { id, optionId: options[0]!.optionId });
    }
  });
  await expect
    .poll(() => updates.some((u) => u.kind === 'connection' && u.connection.state === 'open'))
    .toBe(true);
  const sent = await host.sendMessage(agentId, sessionId, {
    content,
    permissionMode: 'preguntar',
    firstTurn: true,
    ...(attach
      ? { attachments: [{ name: 'dot.png', mimeType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUg==' }] }
      : {}),
  });
  if (!sent.ok) throw new Error(sent.error.message);
  const turnId = sent.value.turnId;
  // The turn includes starting the agent's machine from source (tsx), which took over 15 s at load 15.
  await expect.poll(() => hasTurnEnded(updates, turnId), { timeout: 45_000 }).toBe(true);
  stop();
  return turnId;
}

/**
 * The statements the host's thread prepares on the memory store's connection while `run` runs (each store
 * call prepares its own): libsql's real prepare is only listened to. The store's connection is the one
 * asked about `history_version`, a column only it has (the service in this process has a conversations
 * table too).
 */
async function memoryStatements(run: () => Promise<unknown>): Promise<string[]> {
  const seen: { db: unknown; sql: string }[] = [];
  const prepare = Database.prototype.prepare;
  const spy = vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (
    this: InstanceType<typeof Database>,
    sql,
  ) {
    seen.push({ db: this, sql });
    return prepare.call(this, sql);
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  const store = seen.find((s) => s.sql.includes('history_version'))?.db;
  return seen.filter((s) => s.db === store).map((s) => s.sql.replace(/\s+/g, ' ').trim());
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdesk-memory-'));
  serviceDir = await mkdtemp(join(tmpdir(), 'agentdesk-memory-service-'));
  secrets = createMemorySecretStore();
  service = await startService({ dataDir: serviceDir, port: 0 });
});

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  await service.close();
  await rm(dir, { recursive: true, force: true });
  await rm(serviceDir, { recursive: true, force: true });
});

describe('host memory', () => {
  it('reopens a turn after a restart with its thought, tool call, permission, usage and attachment', async () => {
    let host = await signedInHost();
    const agentId = await acpAgentId(host);
    const created = await host.createConversation(agentId);
    const sessionId = created.ok ? created.value.id : '';
    const turnId = await runTurn(host, agentId, sessionId, 'write notes.md\n```\nmarmalade\n```', true);
    const thumbnail = 'data:image/png;base64,iVBORw0KGgo=';
    expect(await host.saveAttachmentThumbnails(agentId, sessionId, turnId, [thumbnail])).toEqual({
      ok: true,
      value: undefined,
    });
    expect((await host.saveAttachmentThumbnails(agentId, sessionId, turnId, ['<img>'])).ok).toBe(false);
    await host.close();

    host = await openHost();
    const opened = await host.openConversation(agentId, sessionId);
    if (!opened.ok) throw new Error(opened.error.message);
    expect(opened.value.offline).toBe(false);
    const [question, reply] = opened.value.messages;
    expect(question!.attachments).toEqual([{ name: 'dot.png', mimeType: 'image/png', size: 16, thumbnail }]);
    const detail = reply!.detail!;
    expect(detail.turnId).toBe(turnId);
    expect(detail.storedText).toBeUndefined();
    const kinds = detail.events.map((e) => e.event);
    for (const kind of ['thought', 'tool', 'permission', 'permission-resolved', 'chunk'])
      expect(kinds).toContain(kind);
    expect(detail.events.find((e) => e.event === 'tool')!.data).toMatchObject({ status: 'completed' });
    expect(detail.usage).toBeDefined();
    expect(opened.value.models?.options.map((m) => m.id)).toEqual(['demo-fast', 'demo-deep']);

    const hits = await host.searchConversations({ text: 'marmal' });
    expect(hits.ok && hits.value.map((h) => [h.conversationId, h.role])).toContainEqual([sessionId, 'user']);

    const markdown = await host.exportConversation(agentId, sessionId, 'markdown');
    expect(markdown.ok && markdown.value.text).toMatch(/<summary>Thought<\/summary>/);
    const json = await host.exportConversation(agentId, sessionId, 'json');
    const record = json.ok ? (JSON.parse(json.value.text) as { messages: { detail?: unknown }[] }) : null;
    expect(record?.messages[1]?.detail).toMatchObject({ turnId });
  });

  it('reads stored conversations offline while the server is down, and resumes by itself', async () => {
    const host = await signedInHost();
    const agentId = await acpAgentId(host);
    const created = await host.createConversation(agentId);
    const sessionId = created.ok ? created.value.id : '';
    await runTurn(host, agentId, sessionId, 'echo lighthouse');
    expect((await host.listConversations(agentId)).ok).toBe(true);
    const states: Connectivity[] = [];
    host.onConnectivity((c) => states.push(c));

    const port = Number(new URL(service.url).port);
    await service.close();
    const offline = await host.openConversation(agentId, sessionId);
    expect(offline.ok && offline.value.offline).toBe(true);
    expect(offline.ok && offline.value.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(offline.ok && offline.value.messages[1]!.detail?.events.length).toBeGreaterThan(0);
    expect(states.at(-1)).toMatchObject({ online: false });
    expect(states.at(-1)!.reason).toMatch(/can't be reached/);
    const storedAgents = await host.listAgents();
    expect(storedAgents.ok && storedAgents.value.agents.map((a) => a.id)).toContain(agentId);
    const storedList = await host.listConversations(agentId);
    expect(storedList.ok && storedList.value.map((c) => c.id)).toContain(sessionId);
    expect(await host.openConversation(agentId, 'never-stored')).toMatchObject({
      ok: false,
      error: { code: 'offline' },
    });

    service = await startService({ dataDir: serviceDir, port });
    await expect.poll(() => states.at(-1)?.online, { timeout: 15_000 }).toBe(true);
    const online = await host.openConversation(agentId, sessionId);
    expect(online.ok && online.value.offline).toBe(false);
  }, 120_000);

  it('indexes history never opened here in the background, so search finds it', async () => {
    const first = await signedInHost();
    const agents = await first.listAgents();
    const agentId = agents.ok ? agents.value.agents.find((a) => a.protocol === 'acp')!.id : '';
    const created = await first.createConversation(agentId);
    const sessionId = created.ok ? created.value.id : '';
    await runTurn(first, agentId, sessionId, 'echo periwinkle');
    await first.close();

    const otherDir = await mkdtemp(join(tmpdir(), 'agentdesk-memory-other-'));
    try {
      const second = await signedInHost(otherDir);
      await expect
        .poll(
          async () => {
            const hits = await second.searchConversations({ text: 'periwink', agentId });
            return hits.ok ? hits.value.map((h) => h.conversationId) : [];
          },
          { timeout: 15_000, interval: 250 },
        )
        .toContain(sessionId);
      const info = await second.getMemoryInfo();
      expect(info.ok && info.value.indexing).toMatchObject({ failed: 0 });
      const cleared = await second.clearMemory();
      expect(cleared.ok && cleared.value.messages).toBe(0);
      expect(await second.searchConversations({ text: 'periwinkle' })).toEqual({ ok: true, value: [] });
      await second.close();
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it('forgets the transcripts of an account that is deleted', async () => {
    const host = await signedInHost();
    const agentId = await acpAgentId(host);
    const created = await host.createConversation(agentId);
    const sessionId = created.ok ? created.value.id : '';
    await runTurn(host, agentId, sessionId, 'echo albatross');
    const before = await host.searchConversations({ text: 'albatross' });
    expect(before.ok && before.value.length).toBeGreaterThan(0);
    expect((await host.deleteAccount()).ok).toBe(true);
    const info = await host.getMemoryInfo();
    expect(info.ok && info.value).toMatchObject({ conversations: 0, messages: 0 });
    expect(await host.searchConversations({ text: 'albatross' })).toEqual({ ok: true, value: [] });
  });

  it('exports a conversation under the title a rename gave it, at once', async () => {
    const host = await signedInHost();
    const agentId = await acpAgentId(host);
    const created = await host.createConversation(agentId);
    const sessionId = created.ok ? created.value.id : '';
    await runTurn(host, agentId, sessionId, 'echo puffin');
    await host.listConversations(agentId);
    const before = await host.exportConversation(agentId, sessionId, 'markdown');
    expect(before.ok && before.value.text).not.toContain('# Seabirds');
    expect((await host.renameConversation(agentId, sessionId, 'Seabirds')).ok).toBe(true);
    // No new list from the server in between: the rename itself is what the export knows.
    const markdown = await host.exportConversation(agentId, sessionId, 'markdown');
    expect(markdown.ok && markdown.value.fileName).toBe('Seabirds.md');
    expect(markdown.ok && markdown.value.text).toMatch(/^# Seabirds\n/);
    const json = await host.exportConversation(agentId, sessionId, 'json');
    expect(json.ok && JSON.parse(json.value.text).title).toBe('Seabirds');
  });

  it('opening a conversation hands its history to the writer thread: the host writes none of it, a clearing still forgets it', async () => {
    const host = await signedInHost();
    const agentId = await acpAgentId(host);
    const created = await host.createConversation(agentId);
    const sessionId = created.ok ? created.value.id : '';
    await runTurn(host, agentId, sessionId, 'echo kittiwake');
    const profiles = await host.listProfiles();
    const other = new Database(memoryFile(dir, profiles.ok ? profiles.value.activeProfileId! : ''));
    try {
      const stored = () =>
        (
          other
            .prepare('SELECT role, content FROM messages WHERE conversation_id = ? ORDER BY position')
            .all(sessionId) as { role: string; content: string }[]
        ).map((m) => [m.role, m.content]);
      // The live turn's own record (its reply, written as it ended) lands first: on a busy machine it could
      // come during the opening below, and be counted as the opening's write.
      await expect.poll(() => stored().length, { timeout: 15_000, interval: 50 }).toBe(2);
      let opened: Awaited<ReturnType<DeskHost['openConversation']>> | undefined;
      const statements = await memoryStatements(async () => {
        opened = await host.openConversation(agentId, sessionId);
      });
      // It used to replace the messages and mark the history stored here, on the host's thread.
      expect(statements.filter((sql) => /^(INSERT|UPDATE|DELETE)/.test(sql))).toEqual([]);
      if (!opened?.ok) throw new Error('the conversation did not open');
      const server = opened.value.messages.map((m) => [m.role, m.content]);
      expect(server).toHaveLength(2);
      // The stored copy is the server's, whichever thread wrote it last.
      await expect.poll(stored, { timeout: 15_000, interval: 50 }).toEqual(server);

      // Cleared right after an opening: the history handed over is not written back after the clearing.
      expect((await host.openConversation(agentId, sessionId)).ok).toBe(true);
      const cleared = await host.clearMemory();
      expect(cleared.ok && cleared.value.conversations).toBe(0);
      const found = await host.searchConversations({ text: 'kittiwake' });
      expect(found.ok && found.value).toEqual([]);
      expect(stored()).toEqual([]);
    } finally {
      other.close();
    }
  });

  it('checks a conversation list against the store in one query, and a list with nothing new writes nothing', async () => {
    const host = await signedInHost();
    const agentId = await acpAgentId(host);
    for (let i = 0; i < 6; i++) await host.createConversation(agentId);
    await host.listConversations(agentId);
    const profiles = await host.listProfiles();
    // A connection of the test's own: its data_version changes when another connection has committed.
    const other = new Database(memoryFile(dir, profiles.ok ? profiles.value.activeProfileId! : ''));
    const dataVersion = () =>
      (other.prepare('PRAGMA data_version').get() as { data_version: number }).data_version;
    try {
      // The background download of their (empty) histories is over, so nothing else writes meanwhile.
      await expect
        .poll(
          () =>
            (
              other
                .prepare('SELECT COUNT(*) AS n FROM conversations WHERE history_synced_at IS NOT NULL')
                .get() as { n: number }
            ).n,
          { timeout: 15_000, interval: 100 },
        )
        .toBe(6);
      await expect
        .poll(async () => {
          const info = await host.getMemoryInfo();
          return info.ok && info.value.indexing.running;
        })
        .toBe(false);

      // The list the window reads again every 10 s: one query for its six conversations, no write.
      const before = dataVersion();
      const again = await memoryStatements(() => host.listConversations(agentId));
      expect(again).toHaveLength(1);
      expect(again[0]).toMatch(/^SELECT .* FROM conversations WHERE id IN/);
      expect(dataVersion()).toBe(before);

      // A conversation the store has not heard of: the next list writes that one row, in one statement.
      const created = await host.createConversation(agentId);
      const newId = created.ok ? created.value.id : '';
      const changed = await memoryStatements(() => host.listConversations(agentId));
      expect(changed.filter((sql) => /^(INSERT|UPDATE|DELETE)/.test(sql))).toHaveLength(1);
      expect(dataVersion()).not.toBe(before);
      expect(other.prepare('SELECT agent_id FROM conversations WHERE id = ?').get(newId)).toMatchObject({
        agent_id: agentId,
      });
    } finally {
      other.close();
    }
  });

  it('deletes a profile store when the profile is removed', async () => {
    const host = await signedInHost();
    const agents = await host.listAgents();
    expect(agents.ok).toBe(true);
    const profiles = await host.listProfiles();
    const profileId = profiles.ok ? profiles.value.activeProfileId! : '';
    expect(existsSync(memoryFile(dir, profileId))).toBe(true);
    expect((await host.removeProfile(profileId)).ok).toBe(true);
    expect(existsSync(memoryFile(dir, profileId))).toBe(false);
  });
});
