import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../../../src/core/api/api-client';
import type { FetchLike } from '../../../../src/core/common/result';
import type { TokenManager } from '../../../../src/core/auth/token-manager';
import { subscribeEvents } from '../../../../src/core/events/sse-client';
import type { ConnectionState, EventSubscription, StreamEvent } from '../../../../src/core/events/sse-client';
import { startTestService } from '../../../support/local-service';
import type { TestService } from '../../../support/local-service';
import { signedInClient } from '../support/signed-in-client';
import { waitFor } from '../support/wait-for';

// Real service work on a shared two-core machine: allow for a slow neighbour.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/**
 * The SSE client against the real local service: a stream cut mid-turn, and a whole service
 * restart (same port, same data folder). Both must end with every event exactly once.
 */

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Watched {
  events: StreamEvent[];
  states: ConnectionState[];
  subscription: EventSubscription;
}

function watch(
  api: ApiClient,
  tokens: TokenManager,
  agentId: string,
  sessionId: string,
  fetch?: FetchLike,
): Watched {
  const events: StreamEvent[] = [];
  const states: ConnectionState[] = [];
  const subscription = subscribeEvents({
    url: api.eventsUrl(agentId, sessionId),
    auth: tokens,
    onEvent: (event) => events.push(event),
    onState: (state) => states.push(state),
    backoffBaseMs: 50,
    backoffMaxMs: 400,
    ...(fetch ? { fetch } : {}),
  });
  cleanups.push(() => subscription.close());
  return { events, states, subscription };
}

const turnDone = (events: StreamEvent[], turnId: string): boolean =>
  events.some((e) => e.event === 'done' && 'turnId' in e.data && e.data.turnId === turnId);

/** Each turn's events carry ids `<turnId>.1 .. .n`: seen exactly once each, in order, with no gap. */
function expectWholeTurn(events: StreamEvent[], turnId: string): void {
  const ids = events.filter((e) => e.id?.startsWith(`${turnId}.`)).map((e) => e.id);
  expect(ids.length).toBeGreaterThan(2);
  expect(ids).toEqual(ids.map((_, i) => `${turnId}.${i + 1}`));
}

function replyText(events: StreamEvent[], turnId: string): string {
  return events
    .filter(
      (e): e is Extract<StreamEvent, { event: 'chunk' }> => e.event === 'chunk' && e.data.turnId === turnId,
    )
    .map((e) => e.data.text)
    .join('');
}

async function startConversation(service: TestService) {
  const client = await signedInClient(service);
  const agents = await client.api.listAgents();
  if (!agents.ok) throw new Error(agents.error.message);
  const agentId = agents.value.agents[0]!.id;
  const created = await client.api.createConversation(agentId);
  if (!created.ok) throw new Error(created.error.message);
  return { ...client, agentId, sessionId: created.value.id };
}

async function send(api: ApiClient, agentId: string, sessionId: string, content: string): Promise<string> {
  const sent = await api.sendMessage(agentId, sessionId, { content });
  if (!sent.ok) throw new Error(sent.error.message);
  return sent.value.turnId;
}

async function storedReply(api: ApiClient, agentId: string, sessionId: string): Promise<string[]> {
  const conversation = await api.getConversation(agentId, sessionId);
  if (!conversation.ok) throw new Error(conversation.error.message);
  return conversation.value.messages.filter((m) => m.role === 'assistant').map((m) => m.content);
}

/** Real fetch whose first event stream breaks after `cutAfter` event ids, like a dropped Wi-Fi link. */
function fetchThatCutsOnce(cutAfter: number): FetchLike {
  let cut = false;
  return async (input, init) => {
    const response = await fetch(input, init);
    const isStream = response.headers.get('content-type')?.includes('text/event-stream');
    if (cut || !isStream || !response.body) return response;
    cut = true;
    let seen = 0;
    const decoder = new TextDecoder();
    const breaker = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += (decoder.decode(chunk, { stream: true }).match(/^id:/gm) ?? []).length;
        controller.enqueue(chunk);
        if (seen >= cutAfter) controller.error(new Error('link dropped'));
      },
    });
    return new Response(response.body.pipeThrough(breaker), {
      status: response.status,
      headers: response.headers,
    });
  };
}

describe('event stream against the local service', () => {
  it('resumes a stream cut in the middle of a turn with Last-Event-ID, losing and repeating nothing', async () => {
    const service = await startTestService();
    cleanups.push(() => service.cleanup());
    const { api, tokens, agentId, sessionId } = await startConversation(service);
    const watched = watch(api, tokens, agentId, sessionId, fetchThatCutsOnce(3));
    await waitFor(() => watched.states.includes('open'));

    const turnId = await send(api, agentId, sessionId, 'Tell me something about streams, please.');
    await waitFor(() => turnDone(watched.events, turnId));

    expect(watched.states.filter((s) => s === 'open').length).toBeGreaterThanOrEqual(2);
    expectWholeTurn(watched.events, turnId);
    expect(await storedReply(api, agentId, sessionId)).toEqual([replyText(watched.events, turnId)]);
  });

  it('survives a restart of the service (same port and data) with no lost or duplicated event', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-restart-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let service = await startTestService({ dataDir });
    cleanups.push(() => service.cleanup());
    const port = service.port;
    const { api, tokens, agentId, sessionId } = await startConversation(service);
    const watched = watch(api, tokens, agentId, sessionId);
    await waitFor(() => watched.states.includes('open'));

    const first = await send(api, agentId, sessionId, 'First message before the restart.');
    await waitFor(() => turnDone(watched.events, first));

    await service.close();
    await waitFor(() => watched.states.at(-1) === 'reconnecting');
    service = await startTestService({ dataDir, port });
    await waitFor(() => watched.states.filter((s) => s === 'open').length === 2);

    const second = await send(api, agentId, sessionId, 'Second message after the restart.');
    await waitFor(() => turnDone(watched.events, second));

    const ids = watched.events.flatMap((e) => (e.id ? [e.id] : []));
    expect(new Set(ids).size).toBe(ids.length);
    expectWholeTurn(watched.events, first);
    expectWholeTurn(watched.events, second);
    expect(await storedReply(api, agentId, sessionId)).toEqual([
      replyText(watched.events, first),
      replyText(watched.events, second),
    ]);
  });
});
