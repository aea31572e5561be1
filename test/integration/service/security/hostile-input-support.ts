import { request } from 'node:http';
import { homedir } from 'node:os';
import { expect } from 'vitest';
import type { RouteSpec } from '../../../../src/shared/api';
import { agentParamOf } from '../../../../src/service/auth/bearer';
import type { Harness } from '../agent-config/harness';

// What the hostile-input suites share: a raw HTTP request (no URL normalisation, so `%2e%2e` reaches the
// service as sent), the check that an answer is one the spec allows and leaks nothing, and the ids of the
// caller's own objects so a request gets past the 404 of a missing resource to the handler.

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface RawRequest {
  method: string;
  /** The request target exactly as it goes on the wire (already escaped). */
  target: string;
  token?: string;
  contentType?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

/** Sends one request over a fresh connection, exactly as given, and reads the whole answer. */
export function rawRequest(baseUrl: string, req: RawRequest): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { Connection: 'close', ...req.headers };
  if (req.token) headers['Authorization'] = `Bearer ${req.token}`;
  if (req.contentType) headers['Content-Type'] = req.contentType;
  const body = req.body === undefined ? undefined : Buffer.from(req.body);
  if (body) headers['Content-Length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: url.hostname, port: url.port, method: req.method, path: req.target, headers },
      (incoming) => {
        const chunks: Buffer[] = [];
        // An event stream that opened would never end: the first chunk is enough to judge it.
        const isStream = String(incoming.headers['content-type']).startsWith('text/event-stream');
        incoming.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (isStream) incoming.destroy();
        });
        const done = () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        incoming.on('end', done);
        incoming.on('close', done);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Ids of objects the caller owns, per path parameter name. */
export interface OwnIds {
  agentId: string;
  sessionId: string;
  scheduleId: string;
  fileId: string;
}

/** A conversation (titled `title`), a scheduled turn in it and a library file of the harness's person. */
export async function createOwnObjects(h: Harness, title = 'Mine'): Promise<OwnIds> {
  const conversations = `/api/v2/me/agents/${h.agentId}/conversations`;
  const session = (await (await h.call(conversations, { method: 'POST' })).json()) as { id: string };
  await h.call(`${conversations}/${session.id}`, { method: 'PATCH', json: { title } });
  const scheduled = await h.call(`${conversations}/${session.id}/schedule`, {
    method: 'POST',
    json: { prompt: 'later', inMinutes: 600 },
  });
  const file = await h.call('/api/v2/me/files?nombre=mine.txt', { method: 'POST', body: 'mine' });
  return {
    agentId: h.agentId,
    sessionId: session.id,
    scheduleId: ((await scheduled.json()) as { programado: { id: string } }).programado.id,
    fileId: ((await file.json()) as { id: string }).id,
  };
}

/** The target of `route` with the caller's own ids, one parameter replaced by `raw` (already escaped). */
export function targetFor(route: RouteSpec, ids: OwnIds, replace?: { name: string; raw: string }): string {
  const agentParam = agentParamOf(route);
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (replace?.name === name) return replace.raw;
    if (name === agentParam) return ids.agentId;
    if (name === 'sessionId') return ids.sessionId;
    if (name === 'path') return 'notes/today.md';
    if (name === 'slug') return 'my-skill';
    if (name === 'motor') return 'engine-c';
    if (route.path.includes('/schedule/')) return ids.scheduleId;
    if (route.path.startsWith('/api/v2/me/files/')) return ids.fileId;
    return 'item-1';
  });
}

/** Words that only a leak puts in an answer: the machine's folders, a stack frame, an engine's internals. */
export function leakPatterns(dataDir: string): RegExp[] {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [
    new RegExp(escape(dataDir)),
    new RegExp(escape(homedir())),
    new RegExp(escape(process.cwd())),
    /node_modules/,
    /\n\s+at .+:\d+:\d+/,
    /\bat (?:async )?[\w.<>]+ \(.*:\d+:\d+\)/,
    /SqliteError|SQLITE_|TypeError|ReferenceError|RangeError|SyntaxError: /,
    /root:x:0:0/,
  ];
}

/** Error bodies the spec names with their own fields instead of `detalle`. */
function isSpecNamedShape(status: number, body: Record<string, unknown>): boolean {
  if (status === 402) return typeof body['message'] === 'string';
  if (status === 409 && body['error'] === 'agente_no_acp') return typeof body['motor'] === 'string';
  if (status === 404 && body['motivo'] === 'no_abierto') return body['resuelto'] === false;
  if (status === 405) return body['error'] === 'method_not_allowed';
  return false;
}

/**
 * The answer is one the route documents, never a 500, leaks nothing of the machine, and (for a refusal of an
 * `/api/v2` or `/catalogo`… JSON route) carries the spec's `{error, detalle}` with both fields as strings.
 */
export function expectSafeAnswer(
  route: RouteSpec,
  answer: RawAnswer,
  dataDir: string,
  what: string,
  allowed?: number[],
): void {
  const where = `${route.method} ${route.path} ← ${what.slice(0, 200)}: ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, where).not.toBe(500);
  expect(route.responses[answer.status], `${where} (status not documented)`).toBeDefined();
  if (allowed) expect(allowed, where).toContain(answer.status);
  for (const pattern of leakPatterns(dataDir))
    expect(answer.text, `${where} leaks ${pattern}`).not.toMatch(pattern);
  const type = String(answer.headers['content-type'] ?? '');
  if (answer.status >= 400 && type.startsWith('application/json')) {
    const body = JSON.parse(answer.text) as Record<string, unknown>;
    if (route.path.startsWith('/oauth2/')) {
      expect(typeof body['error'], where).toBe('string');
    } else if (!isSpecNamedShape(answer.status, body)) {
      expect(typeof body['error'], where).toBe('string');
      expect(typeof body['detalle'], `${where} (no detalle)`).toBe('string');
    }
  }
}

/** The service still answers a plain, valid request after the abuse. */
export async function expectStillAnswering(baseUrl: string, token: string): Promise<void> {
  const answer = await rawRequest(baseUrl, { method: 'GET', target: '/api/v2/me/agents', token });
  expect(answer.status).toBe(200);
}
