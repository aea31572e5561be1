import { randomUUID } from 'node:crypto';
import type { ServiceOptions } from '../../../../src/service/index';
import { firstAgentId, signIn, startTestService, type TestService } from '../../../support/local-service';
import { openEvents, type EventStreamReader } from '../../../support/sse';

/**
 * A real local service (real HTTP on 127.0.0.1, the real demo agent over stdio), one signed-in
 * client, its first agent (engine-b, the demo agent) and small helpers for the turn routes.
 */

export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Harness {
  service: TestService;
  token: string;
  agentId: string;
  /** `/api/v2/me/agents/{agentId}/conversations[/{id}]`. */
  path(conversationId?: string, rest?: string): string;
  api<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<ApiAnswer<T>>;
  conversation(token?: string): Promise<string>;
  send(conversationId: string, body: Record<string, unknown>, token?: string): Promise<ApiAnswer>;
  events(
    conversationId: string,
    options?: { lastEventId?: string; token?: string },
  ): Promise<EventStreamReader>;
  /** Another sign-in of the same person (another requester). */
  secondClient(): Promise<string>;
  close(): Promise<void>;
}

export async function createHarness(options: Partial<ServiceOptions> = {}): Promise<Harness> {
  const service = await startTestService(options);
  const streams: EventStreamReader[] = [];
  try {
    const tokens = await signIn(service);
    const token = tokens.access_token;
    const agentId = await firstAgentId(service, token);
    const path = (conversationId?: string, rest = '') =>
      `/api/v2/me/agents/${agentId}/conversations${conversationId ? `/${conversationId}` : ''}${rest}`;

    async function api<T>(method: string, url: string, body?: unknown, as = token): Promise<ApiAnswer<T>> {
      const response = await fetch(service.url + url, {
        method,
        headers: {
          Authorization: `Bearer ${as}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text === '' ? null : JSON.parse(text);
      } catch {
        // not JSON (pages, plain-text 401/403)
      }
      return { status: response.status, body: parsed as T, headers: response.headers };
    }

    return {
      service,
      token,
      agentId,
      path,
      api,
      async conversation(as = token) {
        const created = await api<{ id: string }>('POST', path(), undefined, as);
        if (created.status !== 201) throw new Error(`POST conversation answered ${created.status}`);
        return created.body.id;
      },
      send: (conversationId, body, as = token) =>
        api('POST', path(conversationId, '/messages'), { turnId: randomUUID(), ...body }, as),
      async events(conversationId, opts = {}) {
        const reader = await openEvents(
          service.url + path(conversationId, '/events'),
          opts.token ?? token,
          opts,
        );
        streams.push(reader);
        return reader;
      },
      async secondClient() {
        return (await signIn(service)).access_token;
      },
      async close() {
        for (const s of streams) s.close();
        await service.cleanup();
      },
    };
  } catch (error) {
    await service.cleanup();
    throw error;
  }
}
