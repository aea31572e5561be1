import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskBridge } from '../../../src/shared/bridge';
import { createApiClient, type ApiClient } from '../../../src/core/api/api-client';
import { staticTokenSource } from '../../../src/core/auth/access-token-source';
import { toDeskResult } from '../../../src/core/host/plumbing/call-results';
import { useAgentsStore } from '../../../src/renderer/stores/agents-store';
import { useAgentConfigStore } from '../../../src/renderer/stores/agent-config-store';
import { useConversationsStore } from '../../../src/renderer/stores/conversations-store';
import { signIn, startTestService, type TestService } from '../../support/local-service';

// An agent whose engine has no machine of its own: the server's 409 agente_no_acp names the engine
// (`motor`), and that name reaches the renderer's stores in our word (`engine`) through the API client
// and the host's results. The real local service over HTTP; the bridge is the host's own result
// mapping (toDeskResult) put on `window.desk`, since the Electron IPC cannot run here.

describe('an engine without a machine, named from the server to the screens', { timeout: 60_000 }, () => {
  let service: TestService;
  let api: ApiClient;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    service = await startTestService();
    token = (await signIn(service)).access_token;
    api = createApiClient({ baseUrl: service.url, auth: staticTokenSource(token) });
    const call = (path: string, init: RequestInit) =>
      fetch(`${service.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
    const made = await call('/api/v2/me/agents', {
      method: 'POST',
      body: JSON.stringify({ nombre: 'Lite' }),
    });
    expect(made.status).toBe(201);
    agentId = ((await made.json()) as { id: string }).id;
    const moved = await call(`/api/v2/agents/${agentId}`, {
      method: 'PATCH',
      body: JSON.stringify({ engine: 'house-lite' }),
    });
    expect(moved.status).toBe(200);
    const bridge: Partial<DeskBridge> = {
      listConversations: async (id) => toDeskResult(await api.listConversations(id)),
      restartAgent: async (id) => toDeskResult(await api.restartAgent(id)),
      getAgentConfig: async (id) => toDeskResult(await api.getAgentConfig(id)),
    };
    (globalThis as { window?: unknown }).window = { desk: bridge };
  });

  afterAll(async () => {
    delete (globalThis as { window?: unknown }).window;
    await service.cleanup();
  });

  it('the host result carries the engine in our word', async () => {
    const listed = toDeskResult(await api.listConversations(agentId));
    expect(listed).toMatchObject({ ok: false, error: { code: 'agente_no_acp', engine: 'house-lite' } });
    expect(listed.ok || 'motor' in listed.error).toBe(false);
  });

  it('the agents list learns which engine cannot hold conversations', async () => {
    await useConversationsStore.getState().load(agentId);
    expect(useAgentsStore.getState().noConversations[agentId]).toBe('house-lite');
  });

  it("the agent's settings name the server's engine, not the page's stale one", async () => {
    useAgentConfigStore.setState({ agentId, section: 'tools', noMachine: null });
    useAgentConfigStore.setState((s) => ({ config: { ...s.config!, engine: 'stale-engine' } }));
    await useAgentConfigStore.getState().restart();
    expect(useAgentConfigStore.getState().noMachine).toBe('house-lite');
  });
});
