import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../src/core/api/api-client';
import { err, ok } from '../../../../src/core/common/result';
import type { AccessTokenSource } from '../../../../src/core/auth/access-token-source';
import { startScriptedServer } from '../support/scripted-server';
import type { Handler } from '../support/scripted-server';

/**
 * Retry and error behaviour against a scripted real HTTP server on 127.0.0.1 (the local
 * service cannot be asked for a 429 or a dropped connection). Waits go through an injected
 * sleep that records them, so nothing really waits.
 */

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function tokens(): AccessTokenSource & { refreshes: number } {
  let current = 'token-1';
  const source = {
    refreshes: 0,
    getAccessToken: async () => ok(current),
    handleUnauthorized: async (rejected: string) => {
      if (rejected !== current) return ok(current);
      source.refreshes += 1;
      if (source.refreshes > 5) return err({ code: 'signed_out', message: 'You are signed out.' });
      current = `token-${source.refreshes + 1}`;
      return ok(current);
    },
  };
  return source;
}

const AGENTS = { agentes: [], usuario: { id: 'u1' } };
const ACCEPTED = {
  turnId: 'x',
  key: 'k',
  estado: 'queued',
  enCola: 0,
  reemplazoAnterior: false,
  repetido: false,
  inyectado: false,
};

function reply(
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
    ...headers,
  });
  res.end(text);
}

async function setup(script: Handler[], options: { maxAttempts?: number } = {}) {
  let index = 0;
  const server = await startScriptedServer((req, res) => {
    const handler = script[Math.min(index, script.length - 1)]!;
    index += 1;
    return handler(req, res);
  });
  servers.push(server);
  const waits: number[] = [];
  const auth = tokens();
  const api = createApiClient({
    baseUrl: server.url,
    auth,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 1,
    ...options,
  });
  return { api, server, waits, auth };
}

describe('api client retries', () => {
  it('waits for Retry-After on 429 and then succeeds', async () => {
    const { api, waits, server } = await setup([
      (_req, res) => reply(res, 429, '', { 'retry-after': '3' }),
      (_req, res) => reply(res, 200, AGENTS),
    ]);
    const result = await api.listAgents();
    expect(result).toEqual({ ok: true, value: { agents: [], user: { id: 'u1' } } });
    expect(waits).toEqual([3000]);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after the capped number of attempts with a readable error', async () => {
    const { api, waits, server } = await setup(
      [(_req, res) => reply(res, 503, { error: 'reiniciando' }, { 'retry-after': '10' })],
      { maxAttempts: 3 },
    );
    const result = await api.listAgents();
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'reiniciando',
        status: 503,
        message: 'The service is restarting. Please try again in a moment.',
        body: { error: 'reiniciando' },
      },
    });
    expect(waits).toEqual([10_000, 10_000]);
    expect(server.requests).toHaveLength(3);
  });

  it('does not wait longer than the cap: a far Retry-After is reported instead', async () => {
    const { api, waits } = await setup([(_req, res) => reply(res, 429, '', { 'retry-after': '3600' })]);
    const result = await api.listAgents();
    expect(!result.ok && result.error.code).toBe('too_many_requests');
    expect(waits).toEqual([]);
  });

  it('uses jittered exponential backoff when a 503 has no Retry-After', async () => {
    const { api, waits } = await setup([(_req, res) => reply(res, 503, { error: 'x' })], { maxAttempts: 4 });
    await api.listAgents();
    expect(waits).toEqual([1000, 2000, 4000]);
  });

  it('resends POST messages with the same generated turnId after a 503', async () => {
    const { api, server } = await setup([
      (_req, res) => reply(res, 503, { error: 'reiniciando' }, { 'retry-after': '10' }),
      (_req, res) => reply(res, 503, { error: 'reiniciando' }, { 'retry-after': '10' }),
      (_req, res) => reply(res, 202, ACCEPTED),
    ]);
    const result = await api.sendMessage('a1', 's1', { content: 'hola' });
    expect(result.ok).toBe(true);
    const bodies = server.requests.map((r) => JSON.parse(r.body) as { turnId: string; content: string });
    expect(bodies).toHaveLength(3);
    expect(bodies[0]!.turnId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(new Set(bodies.map((b) => b.turnId)).size).toBe(1);
    expect(server.requests.every((r) => r.path === '/api/v2/me/agents/a1/conversations/s1/messages')).toBe(
      true,
    );
  });

  it('keeps a turnId the caller chose', async () => {
    const { api, server } = await setup([(_req, res) => reply(res, 202, ACCEPTED)]);
    const turnId = crypto.randomUUID();
    await api.sendMessage('a1', 's1', { content: 'hola', turnId });
    expect(JSON.parse(server.requests[0]!.body).turnId).toBe(turnId);
  });

  it('retries reads and POST messages after a dropped connection, but not other POSTs', async () => {
    const drop: Handler = (_req, res) => void res.socket?.destroy();
    const reads = await setup([drop, (_req, res) => reply(res, 200, AGENTS)]);
    expect((await reads.api.listAgents()).ok).toBe(true);
    expect(reads.server.requests).toHaveLength(2);

    const sends = await setup([drop, (_req, res) => reply(res, 202, ACCEPTED)]);
    expect((await sends.api.sendMessage('a', 's', { content: 'x' })).ok).toBe(true);
    const [first, second] = sends.server.requests.map((r) => JSON.parse(r.body).turnId);
    expect(first).toBe(second);

    const creates = await setup([drop, (_req, res) => reply(res, 201, { id: 'c1' })]);
    const created = await creates.api.createConversation('a');
    expect(!created.ok && created.error.code).toBe('network');
    expect(!created.ok && created.error.message).toMatch(
      /^Couldn't reach the service at http:\/\/127\.0\.0\.1:\d+\./,
    );
    expect(creates.server.requests).toHaveLength(1);
  });

  it('refreshes once on 401 and retries with the new token', async () => {
    const { api, server, auth } = await setup([
      (_req, res) => reply(res, 401, 'expired'),
      (_req, res) => reply(res, 200, AGENTS),
    ]);
    expect((await api.listAgents()).ok).toBe(true);
    expect(auth.refreshes).toBe(1);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it('does not loop on a second 401 and never retries a 403', async () => {
    const unauthorized = await setup([(_req, res) => reply(res, 401, 'no')]);
    const first = await unauthorized.api.listAgents();
    expect(!first.ok && first.error).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(unauthorized.server.requests).toHaveLength(2);

    const forbidden = await setup([(_req, res) => reply(res, 403, 'scope missing')]);
    const second = await forbidden.api.listAgents();
    expect(!second.ok && second.error).toMatchObject({
      code: 'forbidden',
      status: 403,
      message: "Your sign-in doesn't include permission for this. Sign in again to grant it.",
    });
    expect(forbidden.server.requests).toHaveLength(1);
  });
});

describe('api client errors', () => {
  const cases: [string, number, unknown, { code: string; message: string }][] = [
    [
      'detalle',
      400,
      { error: 'body_invalido', detalle: 'content is required' },
      { code: 'body_invalido', message: 'Content is required.' },
    ],
    [
      '402 message',
      402,
      { error: 'quota_exhausted', message: 'Has agotado tu saldo' },
      { code: 'quota_exhausted', message: 'Has agotado tu saldo.' },
    ],
    [
      'agente_no_acp',
      409,
      { error: 'agente_no_acp', motor: 'house-lite' },
      {
        code: 'agente_no_acp',
        message:
          "This agent's engine (house-lite) has no machine of its own, so this isn't available for it.",
      },
    ],
    [
      'text 404',
      404,
      'Not Found',
      { code: 'not_found', message: "That wasn't found. It may have been deleted, or it isn't yours." },
    ],
    [
      'no_abierto',
      404,
      { resuelto: false, motivo: 'no_abierto' },
      { code: 'no_abierto', message: 'That permission request is no longer open.' },
    ],
    [
      'error in words',
      413,
      { error: 'audio demasiado grande' },
      { code: 'audio demasiado grande', message: 'Audio demasiado grande.' },
    ],
    [
      'unknown 500',
      500,
      '',
      { code: 'http_500', message: 'The service had a problem (HTTP 500). Please try again.' },
    ],
  ];
  for (const [name, status, body, expected] of cases) {
    it(`turns ${name} into a plain sentence`, async () => {
      const { api } = await setup([(_req, res) => reply(res, status, body)]);
      const result = await api.answerPermission('a', 's', { id: 'p', optionId: 'o' });
      expect(!result.ok && result.error).toMatchObject({ ...expected, status });
    });
  }

  it('reports a body that does not match the contract', async () => {
    const { api } = await setup([(_req, res) => reply(res, 200, { agentes: 'nope' })]);
    const result = await api.listAgents();
    expect(!result.ok && result.error).toMatchObject({
      code: 'invalid_response',
      message: 'The service sent a response AgentDesk could not read.',
    });
  });

  it('refuses workspace paths that climb out of the workspace without a request', async () => {
    const { api, server } = await setup([(_req, res) => reply(res, 200, {})]);
    const result = await api.readWorkspaceFile('a', 'notes/../../etc/passwd');
    expect(!result.ok && result.error.code).toBe('invalid_path');
    expect(server.requests).toHaveLength(0);
  });

  it('reads workspace bytes, or a listing from a server without the bytes extension', async () => {
    const { api, server } = await setup([
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(Buffer.from([1, 2, 3]));
      },
      (_req, res) => reply(res, 200, { dir: 'notes', files: [{ path: 'notes/a.md', size: 3 }] }),
    ]);
    expect(await api.readWorkspaceFile('a', 'notes/a b.md')).toEqual({
      ok: true,
      value: { kind: 'bytes', bytes: new Uint8Array([1, 2, 3]), contentType: 'application/octet-stream' },
    });
    expect(server.requests[0]!.path).toBe('/api/v2/agents/a/files/notes/a%20b.md');
    expect(server.requests[0]!.headers.accept).toBe('application/octet-stream');
    const listing = await api.readWorkspaceFile('a', 'notes');
    expect(listing.ok && listing.value.kind).toBe('listing');
  });

  it('reports a redirect in words and never follows it with the body', async () => {
    // A second server stands where the redirect points: it must never see the file.
    const elsewhere = await startScriptedServer((_req, res) => reply(res, 200, {}));
    servers.push(elsewhere);
    const { api, server } = await setup([
      (_req, res) => reply(res, 307, '', { location: `${elsewhere.url}/collect` }),
    ]);
    const result = await api.writeWorkspaceFile('a', 'notes.md', Buffer.from('private notes'));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('redirected');
    expect(result.error.status).toBe(307);
    expect(result.error.message).toContain(`${elsewhere.url}/collect`);
    expect(server.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('says a redirect without a usable Location plainly', async () => {
    const { api } = await setup([(_req, res) => reply(res, 302, '', { location: 'http://[bad' })]);
    const result = await api.listAgents();
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'redirected',
        status: 302,
        message:
          'The server answered with a redirect (HTTP 302), which AgentDesk does not follow with your data.',
      },
    });
  });

  it('does not even ask when signed out', async () => {
    const server = await startScriptedServer((_req, res) => reply(res, 200, AGENTS));
    servers.push(server);
    const api = createApiClient({
      baseUrl: server.url,
      auth: {
        getAccessToken: async () =>
          err({ code: 'signed_out', message: 'You are signed out. Please sign in.' }),
        handleUnauthorized: async () => err({ code: 'signed_out', message: 'x' }),
      },
    });
    expect(await api.listAgents()).toEqual({
      ok: false,
      error: { code: 'signed_out', status: 401, message: 'You are signed out. Please sign in.' },
    });
    expect(server.requests).toHaveLength(0);
  });
});
