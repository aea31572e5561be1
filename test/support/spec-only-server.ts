import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { parse, stringify } from 'yaml';
import { routes } from '../../src/shared/api/routes/index';

/**
 * A strict proxy in front of the local service that serves exactly the spec (api-v2.md) and
 * nothing more, so tests can prove the client copes with any spec-following server:
 * - only the spec's routes (and the server's own HTML sign-in pages behind /oauth2/authorize);
 *   our extension routes, such as the OAuth metadata document, answer 404;
 * - no extension fields: file listings are `{dir, files: [{path, size}]}` (no `sha256`), events
 *   carry only their spec fields, `cancel` only `detenido`, an agent configuration no `about`;
 * - no byte download (GET files is always asked for as JSON), no ETag / If-Match / If-None-Match;
 * - no event ids, so no Last-Event-ID resume;
 * - `/openapi.yaml` lists only the spec's operations (those marked `x-agentdesk-extension` are dropped),
 *   so a client that reads it to find extensions finds none.
 */

export interface SpecOnlyServer {
  /** Its base URL, with `basePath` when one was given. */
  url: string;
  /** Requests it refused as outside the spec, `METHOD /path`. */
  refused: string[];
  close(): Promise<void>;
}

// Paths the API owns; anything else is the server's own pages (sign-in, consent, account).
const API_PREFIXES = [
  '/api/',
  '/oauth2/',
  '/.well-known/',
  '/files/',
  '/archivos/',
  '/gs-mcp',
  '/openapi.yaml',
  '/s/',
];
const DROPPED_REQUEST_HEADERS = [
  'host',
  'if-match',
  'if-none-match',
  'last-event-id',
  'connection',
  // fetch frames the forwarded body itself (it refuses a hop-by-hop transfer-encoding)
  'transfer-encoding',
];
const DROPPED_RESPONSE_HEADERS = ['etag', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'];

/** Fields each event has in the spec; everything else is dropped. `started`'s payload is not shown. */
const EVENT_FIELDS: Record<string, readonly string[]> = {
  started: [],
  caps: ['image'],
  status: ['phase'],
  chunk: ['text', 'turnId'],
  thought: ['text'],
  tool: ['id', 'title', 'kind', 'status', 'path', 'detalle'],
  title: ['title'],
  models: ['options', 'current'],
  usage: ['used', 'size', 'cost', 'input', 'output'],
  permission: ['id', 'title', 'tool', 'options'],
  'permission-resolved': ['id'],
  artifact: [],
  error: ['message'],
};

interface SpecRoute {
  method: string;
  pattern: RegExp;
  extension: boolean;
  operationId: string;
}

const specRoutes: SpecRoute[] = routes.map((route) => ({
  method: route.method,
  // `{path}` spans slashes and may be empty (the workspace root); other parameters are one segment.
  pattern: new RegExp(
    `^${route.path
      .replace(/\./g, '\\.')
      .replace(/\{path\}/g, '.*')
      .replace(/\{[^}]+\}/g, '[^/]+')}$`,
  ),
  extension: route.extension === true,
  operationId: route.operationId,
}));

// Where an Archivo's signed `url` points: the spec's URL must work, wherever a server serves it.
const SIGNED_FILE_URL = /^\/archivos\/[^/]+$/;

type Verdict = 'pass' | 'not_found' | 'method_not_allowed';

function judge(method: string, path: string, also: readonly string[]): Verdict {
  if (!API_PREFIXES.some((prefix) => path.startsWith(prefix))) return 'pass';
  if (method === 'GET' && SIGNED_FILE_URL.test(path)) return 'pass';
  const served = (route: SpecRoute) => !route.extension || also.includes(route.operationId);
  const matching = specRoutes.filter((route) => served(route) && route.pattern.test(path));
  if (matching.length === 0) return 'not_found';
  return matching.some((route) => route.method === method) ? 'pass' : 'method_not_allowed';
}

const pick = (value: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(Object.entries(value).filter(([key]) => keys.includes(key)));

/** A spec listing: `{dir, files: [{path, size}]}`. */
function specListing(value: Record<string, unknown>): Record<string, unknown> {
  const files = Array.isArray(value.files)
    ? value.files.map((file: Record<string, unknown>) => pick(file, ['path', 'size']))
    : value.files;
  return { ...value, files };
}

/** Drops the extension fields of a JSON answer. */
function specJson(method: string, path: string, body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const value = body as Record<string, unknown>;
  if (/^\/api\/v2\/agents\/[^/]+(\/files(\/.*)?)?$/.test(path) && method === 'GET' && 'files' in value) {
    return specListing(value);
  }
  if (path.endsWith('/cancel')) return pick(value, ['detenido']);
  // `about` (the words for engines and tools) is our extension of the agent configuration.
  if (/^\/api\/v2\/agents\/[^/]+$/.test(path) && 'about' in value) {
    const { about: _ours, ...spec } = value;
    return spec;
  }
  return value;
}

/** The server's OpenAPI document without our extension operations (and paths left with none). */
function specOpenApi(yaml: string, also: readonly string[]): string {
  const doc = parse(yaml) as { paths?: Record<string, Record<string, unknown>> };
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const described = operation as Record<string, unknown> | null;
      const marked = described?.['x-agentdesk-extension'] === true;
      if (marked && !also.includes(String(described?.operationId))) delete operations[method];
    }
    if (Object.keys(operations).length === 0) delete doc.paths![path];
  }
  return stringify(doc);
}

/** One SSE event block rewritten: no `id:`, only the spec's fields. */
function specEventBlock(block: string): string {
  const lines = block.split('\n');
  const name = lines
    .find((line) => line.startsWith('event:'))
    ?.slice(6)
    .trim();
  const dataLine = lines.find((line) => line.startsWith('data:'));
  if (!name || !dataLine) return lines.filter((line) => !line.startsWith('id:')).join('\n');
  let data = JSON.parse(dataLine.slice(5).trim()) as Record<string, unknown>;
  if (name === 'done') data = data.reposo === true ? { reposo: true } : pick(data, ['turnId']);
  else if (EVENT_FIELDS[name]) data = pick(data, EVENT_FIELDS[name]);
  return `event: ${name}\ndata: ${JSON.stringify(data)}`;
}

async function pipeEvents(upstream: Response, res: ServerResponse): Promise<void> {
  const reader = upstream.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  res.on('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      res.write(`${block.startsWith(':') ? block : specEventBlock(block)}\n\n`);
    }
  }
  res.end();
}

/**
 * `basePath` (e.g. `/tenant`) serves the API under a path, as a server shared by tenants would: API
 * and OAuth routes answer only below it; the server's own HTML pages stay where they are.
 * `also` names extension operations (operationIds) served too, with their listing in `/openapi.yaml`:
 * a server that has some of our extensions and not others (e.g. the fork without the rewind).
 */
export async function startSpecOnlyServer(
  upstreamUrl: string,
  options: { basePath?: string; also?: readonly string[] } = {},
): Promise<SpecOnlyServer> {
  const upstream = new URL(upstreamUrl);
  const basePath = options.basePath ?? '';
  const also = options.also ?? [];
  const refused: string[] = [];
  let selfOrigin = '';

  /** The upstream's redirects, as this server's: its origin, and the base path before API paths. */
  const rewriteLocation = (location: string): string => {
    const local = location.startsWith(upstream.origin) ? location.slice(upstream.origin.length) : location;
    if (!local.startsWith('/')) return location; // elsewhere, e.g. the app's loopback listener
    const api = API_PREFIXES.some((prefix) => local.startsWith(prefix));
    return `${location === local ? '' : selfOrigin}${api ? basePath : ''}${local}`;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const method = req.method ?? 'GET';
    const underBase = basePath !== '' && url.pathname.startsWith(`${basePath}/`);
    if (underBase) url.pathname = url.pathname.slice(basePath.length);
    const isPage = !API_PREFIXES.some((prefix) => url.pathname.startsWith(prefix));
    const verdict = basePath && !underBase && !isPage ? 'not_found' : judge(method, url.pathname, also);
    if (verdict !== 'pass') {
      refused.push(`${method} ${url.pathname}`);
      const status = verdict === 'not_found' ? 404 : 405;
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ error: verdict }));
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || DROPPED_REQUEST_HEADERS.includes(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    if (method === 'GET' && /^\/api\/v2\/agents\/[^/]+\/files\//.test(url.pathname)) {
      headers.set('accept', 'application/json'); // no byte download
    }
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const answer = await fetch(new URL(url.pathname + url.search, upstream), {
      method,
      headers,
      redirect: 'manual',
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
    } as RequestInit);

    const out: Record<string, string | string[]> = {};
    answer.headers.forEach((value, name) => {
      if (!DROPPED_RESPONSE_HEADERS.includes(name) && name !== 'set-cookie') out[name] = value;
    });
    const cookies = answer.headers.getSetCookie();
    if (cookies.length) out['set-cookie'] = cookies;
    if (typeof out.location === 'string') out.location = rewriteLocation(out.location);

    const type = answer.headers.get('content-type') ?? '';
    if (type.startsWith('text/event-stream') && answer.body) {
      res.writeHead(answer.status, out);
      res.flushHeaders();
      await pipeEvents(answer, res);
      return;
    }
    const bytes = Buffer.from(await answer.arrayBuffer());
    let body: Buffer = bytes;
    if (url.pathname === '/openapi.yaml' && answer.ok) {
      body = Buffer.from(specOpenApi(bytes.toString('utf8'), also));
    } else if (type.startsWith('application/json') && bytes.length > 0) {
      body = Buffer.from(JSON.stringify(specJson(method, url.pathname, JSON.parse(bytes.toString('utf8')))));
    }
    res.writeHead(answer.status, out);
    res.end(body);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'proxy_failed', detalle: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  selfOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: selfOrigin + basePath,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
