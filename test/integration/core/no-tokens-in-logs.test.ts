import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../../src/core/api/api-client';
import { staticTokenSource } from '../../../src/core/auth/access-token-source';
import { createLogger } from '../../../src/core/log/logger';
import { startLogin } from '../../../src/core/auth/login-flow';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import type { TokenSet } from '../../../src/core/auth/pkce';
import type { SecretStore } from '../../../src/core/auth/secret-store';
import { TokenManager } from '../../../src/core/auth/token-manager';
import { subscribeEvents } from '../../../src/core/events/sse-client';
import type { StreamEvent } from '../../../src/core/events/sse-client';
import {
  createAgentToken,
  DEFAULT_EMAIL,
  DEFAULT_PASSWORD,
  DESKTOP_CLIENT_ID,
  ensurePerson,
  startTestService,
} from '../../support/local-service';
import type { TestService } from '../../support/local-service';
import { walkSignIn } from './support/browser-walk';
import { recordingFetch } from './support/recording-fetch';
import { waitFor } from './support/wait-for';

// Real service work on a shared two-core machine: allow for a slow neighbour.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/**
 * A whole run (sign-in, API calls, a refresh, a 503 retry, an event stream, an agent token,
 * sign-out) with every log line captured: core loggers at debug level, the service's request
 * log, and the console. Then a grep for every secret that went over the wire.
 */

const lines: string[] = [];
const secrets = new Set<string>();
let service: TestService;

beforeAll(async () => {
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(
        `console.${method} ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}`,
      );
    });
  }
  service = await startTestService({ log: (line) => lines.push(`service ${line}`) });
  await ensurePerson(service);
});
afterAll(async () => {
  await service.cleanup();
  vi.restoreAllMocks();
});

function keepSecretsOf(tokens: TokenSet): void {
  secrets.add(tokens.accessToken);
  // Our service always rotates a refresh token in; another server may send none.
  if (tokens.refreshToken) secrets.add(tokens.refreshToken);
}

describe('logs of a whole run', () => {
  it('never contain a token, code or verifier', async () => {
    const logger = createLogger((level, line) => lines.push(`${level} ${line}`), 'core');
    const fetch = recordingFetch();
    let now = Date.now();

    // Sign in through the browser.
    const attempt = startLogin({
      baseUrl: service.url,
      clientId: DESKTOP_CLIENT_ID,
      scopes: ['profile', 'agents:read', 'agents:write', 'files'],
      fetch,
      logger,
      openBrowser: (url) => void walkSignIn(url, { email: DEFAULT_EMAIL, password: DEFAULT_PASSWORD }),
    });
    const login = await attempt.result;
    if (!login.ok) throw new Error(login.error.message);
    keepSecretsOf(login.value);

    // Keep everything the store ever holds (rotated tokens included).
    const inner = createMemorySecretStore();
    const store: SecretStore = {
      kind: 'memory',
      get: (key) => inner.get(key),
      delete: (key) => inner.delete(key),
      set: async (key, value) => {
        keepSecretsOf(JSON.parse(value) as TokenSet);
        await inner.set(key, value);
      },
    };
    const tokens = await TokenManager.open({
      store,
      key: 'tokens:local',
      oauth: { baseUrl: service.url, clientId: DESKTOP_CLIENT_ID, fetch },
      now: () => now,
      logger,
    });
    await tokens.signIn(login.value);
    const api = createApiClient({
      baseUrl: service.url,
      auth: tokens,
      fetch,
      logger,
      sleep: async () => service.context.conversations.setDraining(false),
    });

    const agents = await api.listAgents();
    if (!agents.ok) throw new Error(agents.error.message);
    const agentId = agents.value.agents[0]!.id;
    const conversation = await api.createConversation(agentId);
    if (!conversation.ok) throw new Error(conversation.error.message);
    const sessionId = conversation.value.id;

    // A refresh (the clock passes the expiry) and an event stream through a turn sent during a drain.
    now += 2 * 60 * 60 * 1000;
    const events: StreamEvent[] = [];
    const stream = subscribeEvents({
      url: api.eventsUrl(agentId, sessionId),
      auth: tokens,
      fetch,
      logger,
      onEvent: (event) => events.push(event),
    });
    service.context.conversations.setDraining(true);
    const sent = await api.sendMessage(agentId, sessionId, { content: 'hello' });
    if (!sent.ok) throw new Error(sent.error.message);
    await waitFor(() => events.some((e) => e.event === 'done' && 'turnId' in e.data));
    stream.close();

    // An agent token, and a request the service refuses with it.
    const agentToken = await createAgentToken(service, agentId);
    secrets.add(agentToken);
    const agentApi = createApiClient({
      baseUrl: service.url,
      auth: staticTokenSource(agentToken),
      fetch,
      logger,
    });
    expect((await agentApi.getAgentConfig(agentId)).ok).toBe(true);
    expect((await agentApi.listAgents()).ok).toBe(false);

    await tokens.signOut();

    // Everything secret that crossed the wire.
    for (const call of fetch.calls) {
      if (call.authorization) secrets.add(call.authorization.replace(/^Bearer /, ''));
      if (call.url.pathname === '/oauth2/token') {
        const form = new URLSearchParams(call.body);
        for (const field of ['code', 'code_verifier', 'refresh_token']) {
          const secret = form.get(field);
          if (secret) secrets.add(secret);
        }
      }
    }

    expect(fetch.count('/oauth2/token')).toBe(2); // the code exchange and one refresh
    expect(secrets.size).toBeGreaterThanOrEqual(7);
    expect(lines.some((line) => line.includes('Refreshing the access token.'))).toBe(true);
    expect(lines.some((line) => line.startsWith('service '))).toBe(true);
    expect(lines.length).toBeGreaterThan(20);
    const leaks = lines.filter((line) => [...secrets].some((secret) => line.includes(secret)));
    expect(leaks).toEqual([]);
  });
});
