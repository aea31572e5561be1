import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../src/core/api/api-client';
import { staticTokenSource } from '../../../src/core/auth/access-token-source';
import { toDeskResult } from '../../../src/core/host/plumbing/call-results';
import { signIn, startTestService, type TestService } from '../../support/local-service';

// An agent whose engine has no machine of its own: the server's 409 agente_no_acp names the engine
// (`motor`), and the host's result carries it in our word (`engine`), read once by the API client. The real
// local service over HTTP; test/unit/renderer/no-machine-engine.test.ts follows that result into the stores.

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
  });

  afterAll(async () => {
    await service.cleanup();
  });

  it('the host result carries the engine in our word, for conversations and for a restart', async () => {
    const answers = [
      toDeskResult(await api.listConversations(agentId)),
      toDeskResult(await api.restartAgent(agentId)),
    ];
    for (const answer of answers) {
      expect(answer).toMatchObject({ ok: false, error: { code: 'agente_no_acp', engine: 'house-lite' } });
      expect(answer.ok || 'motor' in answer.error).toBe(false);
    }
  });
});
