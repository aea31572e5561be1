import fc from 'fast-check';
import { expect } from 'vitest';
import type { RouteSpec } from '../../src/shared/api';
import { agentParamOf } from '../../src/service/auth/bearer';
import { bodyArbitrary, hostileString, queryArbitrary } from './schema-arbitrary';

// A URL longer than Node's header limit is refused by Node itself (431), before the service sees it.
// An empty parameter names another route (`/files/` is not `/files/{id}`), so it is not this route's input.
const urlPart = hostileString.filter((s) => s.length > 0 && s.length < 1000);

/** One generated request to one route. */
export interface RouteCall {
  path: string;
  query: Record<string, string | undefined>;
  contentType: string | null;
  body: string | Uint8Array | null;
}

/** Ids that exist for the caller, so generated requests get past 404 to the handlers. */
export interface KnownIds {
  agentId: string;
  sessionId: string;
}

function paramArbitrary(route: RouteSpec, name: string, known: KnownIds): fc.Arbitrary<string> {
  const good =
    name === agentParamOf(route)
      ? known.agentId
      : name === 'sessionId'
        ? known.sessionId
        : name === 'path'
          ? 'notes/today.md'
          : name === 'slug'
            ? 'my-skill'
            : 'item-1';
  return fc.oneof({ weight: 3, arbitrary: fc.constant(good) }, { weight: 2, arbitrary: urlPart });
}

/** Requests for `route` from its own schemas: path parameters, query, body and content type. */
export function routeCallArbitrary(route: RouteSpec, known: KnownIds): fc.Arbitrary<RouteCall> {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const params = fc.tuple(...names.map((name) => paramArbitrary(route, name, known)));
  const body = route.request.body;
  let payload: fc.Arbitrary<{ contentType: string | null; body: string | Uint8Array | null }>;
  if (!body) {
    payload = fc.constant({ contentType: null, body: null });
  } else if (body.kind === 'json' || body.kind === 'form') {
    const values = body.schema ? bodyArbitrary(body.schema) : fc.jsonValue();
    const type = body.kind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
    payload = fc
      .tuple(values, fc.constantFrom(type, type, type, 'text/plain', 'application/xml', null))
      .map(([value, contentType]) => ({
        contentType,
        body:
          body.kind === 'json'
            ? JSON.stringify(value)
            : new URLSearchParams(
                Object.entries(typeof value === 'object' && value ? value : { value }).map(
                  ([k, v]): [string, string] => [k, String(v)],
                ),
              ).toString(),
      }));
  } else {
    const type = body.kind === 'audio' ? 'audio/wav' : 'application/octet-stream';
    payload = fc
      .tuple(fc.uint8Array({ maxLength: 2048 }), fc.constantFrom(type, type, 'application/json', null))
      .map(([bytes, contentType]) => ({ contentType, body: bytes }));
  }
  return fc
    .record({ params, query: queryArbitrary(route.request.query), payload })
    .map(({ params: values, query, payload: p }) => {
      let i = 0;
      const path = route.path.replace(/\{(\w+)\}/g, () => encodeURIComponent(values[i++] as string));
      return { path, query, contentType: p.contentType, body: p.body };
    });
}

/** Sends one generated request with `token` (if any) and never follows redirects. */
export async function sendRouteCall(
  baseUrl: string,
  route: RouteSpec,
  call: RouteCall,
  token?: string,
): Promise<Response> {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(call.query)) if (v !== undefined) query.set(k, v);
  const headers: Record<string, string> = {};
  if (token) headers['Authorization'] = `Bearer ${token}`;
  if (call.contentType) headers['Content-Type'] = call.contentType;
  const search = query.toString();
  const send = () =>
    fetch(`${baseUrl}${call.path}${search ? `?${search}` : ''}`, {
      method: route.method,
      headers,
      redirect: 'manual',
      ...(call.body !== null && route.method !== 'GET' ? { body: call.body } : {}),
    });
  // A kept-alive socket the service closed after an earlier answer (a refused body closes its connection)
  // can be reset as fetch reuses it; that is transport, not an answer, so the request is sent once more.
  return send().catch((error: unknown) => {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error;
    return send();
  });
}

/**
 * The answer is one the route table documents for this route (and so /openapi.yaml, built from it): a
 * documented status, never a 500, and a body of the documented kind and shape. Returns the status.
 */
export async function expectDocumentedAnswer(
  route: RouteSpec,
  response: Response,
  request = '',
): Promise<number> {
  const { status } = response;
  const where = `${route.method} ${route.path} answered ${status}${request ? ` to ${request}` : ''}`;
  expect(status, where).not.toBe(500);
  const documented = route.responses[status];
  expect(documented, `${where}, which its documentation does not list`).toBeDefined();
  const type = response.headers.get('content-type') ?? '';
  const spec = documented!;
  if (spec.body === 'event-stream' && status === 200) {
    expect(type, where).toMatch(/^text\/event-stream/);
    await response.body?.cancel();
    return status;
  }
  const text = await response.text();
  // A status documented with a second, JSON body (a guard's 403 beside the plain-text scope one).
  if (spec.alsoJson && type.startsWith('application/json')) {
    const parsed = spec.alsoJson.safeParse(JSON.parse(text));
    expect(parsed.success, `${where} with a body off its schema: ${text.slice(0, 300)}`).toBe(true);
  } else if (spec.body === 'text') expect(type, where).toMatch(/^text\/plain/);
  else if (spec.body === 'html') expect(type, where).toMatch(/^text\/html/);
  else if (spec.body === 'yaml') expect(type, where).toMatch(/yaml/);
  else if (spec.body === 'empty') expect(text, where).toBe('');
  else if (typeof spec.body !== 'string') {
    expect(type, where).toMatch(/^application\/json/);
    const parsed = spec.body.safeParse(JSON.parse(text));
    expect(parsed.success, `${where} with a body off its schema: ${text.slice(0, 300)}`).toBe(true);
  }
  if (status >= 400 && type.startsWith('application/json')) {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    expect(typeof error, `${where} without an error code`).toBe('string');
  }
  return status;
}
