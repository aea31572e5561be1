import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../../../src/core/api/api-client';
import { subscribeEvents } from '../../../../src/core/events/sse-client';
import type { StreamEvent } from '../../../../src/core/events/sse-client';
import type { TokenManager } from '../../../../src/core/auth/token-manager';
import { startTestService } from '../../../support/local-service';
import type { TestService } from '../../../support/local-service';
import { signedInClient } from '../support/signed-in-client';
import type { recordingFetch } from '../support/recording-fetch';
import { waitFor } from '../support/wait-for';

// Real service work on a shared two-core machine: allow for a slow neighbour.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/**
 * POST messages while the local service drains for a restart: it answers 503 `reiniciando`
 * with Retry-After: 10. The client waits (an injected sleep that also ends the drain, so the
 * test does not really wait 10 s) and resends the same turnId: exactly one turn exists.
 */

let service: TestService;
let api: ApiClient;
let tokens: TokenManager;
let fetch: ReturnType<typeof recordingFetch>;
const waits: number[] = [];

beforeAll(async () => {
  service = await startTestService();
  ({ api, tokens, fetch } = await signedInClient(service, {
    api: {
      sleep: async (ms) => {
        waits.push(ms);
        service.context.conversations.setDraining(false);
      },
    },
  }));
});
afterAll(async () => {
  await service.cleanup();
});

describe('sending while the service restarts', () => {
  it('retries a 503 reiniciando after Retry-After with the same turnId, and never duplicates the turn', async () => {
    const agents = await api.listAgents();
    if (!agents.ok) throw new Error(agents.error.message);
    const agentId = agents.value.agents[0]!.id;
    const created = await api.createConversation(agentId);
    if (!created.ok) throw new Error(created.error.message);
    const sessionId = created.value.id;

    const events: StreamEvent[] = [];
    const stream = subscribeEvents({
      url: api.eventsUrl(agentId, sessionId),
      auth: tokens,
      onEvent: (event) => events.push(event),
    });

    service.context.conversations.setDraining(true);
    const sent = await api.sendMessage(agentId, sessionId, { content: 'echo only once' });

    expect(sent.ok).toBe(true);
    if (!sent.ok) return;
    expect(sent.value.repeated).toBe(false);
    expect(waits).toEqual([10_000]);
    const posts = fetch.calls.filter((call) => call.url.pathname.endsWith('/messages'));
    expect(posts.map((call) => call.status)).toEqual([503, 202]);
    const turnIds = posts.map((call) => (JSON.parse(call.body!) as { turnId: string }).turnId);
    expect(turnIds[0]).toBe(turnIds[1]);
    expect(sent.value.turnId).toBe(turnIds[0]);

    await waitFor(() =>
      events.some((e) => e.event === 'done' && 'turnId' in e.data && e.data.turnId === sent.value.turnId),
    );
    stream.close();

    // Sending the same turnId again (e.g. after a lost 202) is recognised, not run twice.
    const again = await api.sendMessage(agentId, sessionId, {
      content: 'echo only once',
      turnId: turnIds[0],
    });
    expect(again.ok && again.value.repeated).toBe(true);

    const conversation = await api.getConversation(agentId, sessionId);
    if (!conversation.ok) throw new Error(conversation.error.message);
    expect(conversation.value.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'echo only once',
    ]);
  });
});
