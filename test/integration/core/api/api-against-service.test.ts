import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../../../src/core/api/api-client';
import { startTestService } from '../../../support/local-service';
import type { TestService } from '../../../support/local-service';
import { signedInClient } from '../support/signed-in-client';
import type { recordingFetch } from '../support/recording-fetch';

// Real service work on a shared two-core machine: allow for a slow neighbour.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** The API client against the real local service: every route the app uses parses with the shared schemas. */

let service: TestService;
let api: ApiClient;
let fetch: ReturnType<typeof recordingFetch>;
let agentId: string;

beforeAll(async () => {
  service = await startTestService();
  ({ api, fetch } = await signedInClient(service));
  const agents = await api.listAgents();
  if (!agents.ok) throw new Error(agents.error.message);
  agentId = agents.value.agents[0]!.id;
});
afterAll(async () => {
  await service.cleanup();
});

function value<T>(
  result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } },
): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

describe('api client against the local service', () => {
  it('lists agents with the person', async () => {
    const agents = value(await api.listAgents());
    expect(agents.user.email).toBe('person@example.test');
    expect(agents.agents.length).toBeGreaterThan(0);
  });

  it('creates, reads, renames, shares and archives a conversation', async () => {
    const { id } = value(await api.createConversation(agentId));
    const list = value(await api.listConversations(agentId));
    expect(list.map((c) => c.id)).toContain(id);
    expect(value(await api.getConversation(agentId, id, { limit: 10 })).messages).toEqual([]);
    value(await api.renameConversation(agentId, id, 'Plans'));
    const renamed = value(await api.listConversations(agentId)).find((c) => c.id === id);
    expect(renamed?.title).toBe('Plans');
    expect(value(await api.getSharing(agentId, id)).shared).toBe(false);
    const shared = value(await api.share(agentId, id));
    expect(shared.shared).toBe(true);
    expect(shared.slug).toBeTruthy();
    expect(value(await api.unshare(agentId, id)).shared).toBe(false);
    value(await api.archiveConversation(agentId, id));
  });

  it('schedules and cancels a turn', async () => {
    const { id } = value(await api.createConversation(agentId));
    const scheduled = value(await api.scheduleTurn(agentId, id, { prompt: 'later', inMinutes: 30 }));
    expect(scheduled.prompt).toBe('later');
    expect(value(await api.listSchedule(agentId, id)).map((p) => p.id)).toEqual([scheduled.id]);
    value(await api.cancelScheduledTurn(agentId, id, scheduled.id));
    expect(value(await api.listSchedule(agentId, id))).toEqual([]);
  });

  it('answers a closed permission request with a readable no_abierto error', async () => {
    const { id } = value(await api.createConversation(agentId));
    const result = await api.answerPermission(agentId, id, { id: 'nope', optionId: 'allow' });
    expect(!result.ok && result.error).toMatchObject({
      code: 'no_abierto',
      status: 404,
      message: 'That permission request is no longer open.',
    });
  });

  it("gives a plain 404 for an agent that is not the caller's", async () => {
    const result = await api.listConversations('not-my-agent');
    expect(!result.ok && result.error).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('reads and changes the agent configuration and its workspace', async () => {
    const config = value(await api.getAgentConfig(agentId));
    expect(config.id).toBe(agentId);
    const patched = value(await api.updateAgentConfig(agentId, { name: 'Renamed agent' }));
    expect(patched.name).toBe('Renamed agent');
    const bytes = new TextEncoder().encode('# Notes\n');
    expect(value(await api.writeWorkspaceFile(agentId, 'notes/today.md', bytes)).bytes).toBe(bytes.length);
    const listing = value(await api.listWorkspace(agentId, 'notes'));
    expect(listing.files.map((f) => f.path)).toContain('notes/today.md');
    const read = value(await api.readWorkspaceFile(agentId, 'notes/today.md'));
    expect(read.kind === 'bytes' && new TextDecoder().decode(read.bytes)).toBe('# Notes\n');
    value(await api.deleteWorkspaceFile(agentId, 'notes/today.md'));
    expect(value(await api.listSkills(agentId)).skills).toBeInstanceOf(Array);
    expect(value(await api.getMcpServers(agentId)).servers).toBeInstanceOf(Array);
    expect(value(await api.getBundle(agentId)).files).toBeInstanceOf(Array);
  });

  it('uploads, lists, renews and deletes an account file', async () => {
    const file = value(await api.uploadFile('hello.txt', new TextEncoder().encode('hello'), 'text/plain'));
    expect(file).toMatchObject({ name: 'hello.txt', size: 5 });
    expect(value(await api.listFiles()).map((a) => a.id)).toContain(file.id);
    expect(value(await api.getFileUrl(file.id)).url).toBeTruthy();
    expect(value(await api.deleteFile(file.id)).deleted).toBe(true);
  });

  it('sends every API request with a bearer', () => {
    expect(
      fetch.calls
        .filter((c) => c.url.pathname.startsWith('/api/'))
        .every((c) => c.authorization?.startsWith('Bearer ')),
    ).toBe(true);
  });
});
