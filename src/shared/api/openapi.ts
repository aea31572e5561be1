import { z } from 'zod';
import { dump } from 'js-yaml';
import { LIMITS } from './limits';
import { SCHEMA_REF, SchemaComponents, type Json } from './openapi-schemas';
import type { RequestBodySpec, ResponseSpec, RouteSpec } from './route-types';
import { API_BASE, apiRoutes, routePath, routes } from './routes';

/**
 * Builds the OpenAPI 3.1 document (version 2.0) from the route table and the zod schemas, with
 * zod's own `z.toJSONSchema`. Platform-free, deterministic: the service serves it at /openapi.yaml
 * and `npm run openapi` writes it to docs/openapi.yaml.
 */

export interface OpenApiOptions {
  /** Absolute base URL of a running service; relative (`/`) when absent. */
  serverUrl?: string;
}

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  profile: 'Knowing who the person is (id and e-mail).',
  'agents:read': 'Listing agents, reading conversations, subscribing to events.',
  'agents:write':
    'Sending messages, cancelling, answering permissions, scheduling, sharing, deleting the account.',
  files: 'Uploading and reading account files, transcribing audio.',
};

const TAGS: { name: string; description: string }[] = [
  { name: 'agent-config', description: 'Agent configuration (agent token or OAuth token with the scope).' },
  { name: 'account', description: 'The person and their agents (OAuth).' },
  { name: 'conversations', description: 'Conversations of an agent (OAuth).' },
  { name: 'turns', description: 'Turns, events, permissions, models and schedules (OAuth).' },
  { name: 'files', description: 'Account file library and audio transcription (OAuth, scope `files`).' },
  { name: 'connectors', description: 'Connectors to external providers (OAuth).' },
  { name: 'devices', description: 'Push-device registration (OAuth).' },
  { name: 'oauth', description: 'OAuth 2.0 authorization code with PKCE; no bearer needed.' },
  { name: 'public', description: 'Public pages; no bearer needed.' },
];

const DESCRIPTION = [
  'Lets a client act on behalf of one person toward that person’s conversational agents. Beta.',
  '',
  `Every \`${API_BASE}\` route requires \`Authorization: Bearer <token>\`: an OAuth 2.0 access token (authorization code with PKCE) for \`${API_BASE}/me/...\`, or an agent token (prefix \`gat_\`, one agent only) on \`${API_BASE}/agents/{id}/...\`, where an OAuth token with the scope is also accepted. JSON responses carry \`Cache-Control: no-store\`.`,
  '',
  'A turn is accepted with 202 and observed on the conversation’s Server-Sent Events stream; each message of the stream (its `event:` name and JSON `data:` payload) is described by the `SseMessage` schema.',
  '',
  `Errors: 401 and the missing-scope 403 are plain text; JSON errors are \`{error, detalle}\` (OAuth routes: \`{error, error_description}\`). A known path called with another method answers 405 \`{error: "method_not_allowed"}\` with an \`Allow\` header (the MCP server \`${apiRoutes.lentToolsMcp.path}\` answers as the MCP SDK does: 405, a JSON-RPC error, \`Allow: GET, POST, DELETE\`). Unknown paths answer 404 \`{error: "not_found"}\`. A write that the disk holding the service's data refuses (full, or over quota) answers 507 \`{error: "disco_lleno", detalle}\` naming that disk, with \`Retry-After\` (our choice): nothing was changed, and the same request succeeds once there is space.`,
  '',
  `Guards in front of every route, listed on each operation (our choice): this local service answers only when named by a loopback \`Host\` (\`127.0.0.1\`, \`localhost\` or \`[::1]\`, with its port), in the header and in an absolute-form target; anything else (a page that rebound its DNS name to this computer) answers 421 \`{error: "host_no_permitido", detalle}\`. A request whose \`Origin\` names a page of another site answers 403 \`{error: "origen_no_permitido", detalle}\`, preflights included. Under \`${API_BASE}\`, a \`.\` or \`..\` segment in the target, or a segment that is not UTF-8, answers 400 \`ruta_invalida\` (after the bearer). A query parameter given twice, and a \`multipart/*\` body where raw bytes are expected, answer 400 \`body_invalido\`.`,
  '',
  'Where the spec leaves something open, this document states what this service does and marks it "(our choice)". Notably (our choice): 404 is always the JSON body, never text; this service does not send 429 (clients must still honour `Retry-After` if a server does); "MB" limits are MiB; agent tokens do not expire until revoked.',
].join('\n');

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function security(route: RouteSpec): Json[] {
  if (route.credential === 'none' || route.scope === null) return [];
  const oauth = { oauth2: [route.scope] };
  return route.credential === 'agent-or-oauth' ? [{ agentToken: [] }, oauth] : [oauth];
}

function isRequired(schema: z.ZodType): boolean {
  return !schema.safeParse(undefined).success;
}

function parameters(route: RouteSpec, components: SchemaComponents): Json[] {
  const list: Json[] = [];
  for (const [name, schema] of Object.entries(route.request.params?.shape ?? {})) {
    const description =
      name === 'path'
        ? 'Path relative to the workspace `/data/work`; may contain `/` and may be empty; no `..`.'
        : undefined;
    list.push({
      name,
      in: 'path',
      required: true,
      ...(description ? { description } : {}),
      schema: components.inline(schema),
    });
  }
  for (const [name, schema] of Object.entries(route.request.query?.shape ?? {})) {
    list.push({ name, in: 'query', required: isRequired(schema), schema: components.inline(schema) });
  }
  for (const [name, description] of Object.entries(route.request.headers ?? {})) {
    // OpenAPI ignores `Accept` as a parameter; the operation description documents it instead.
    if (name.toLowerCase() === 'accept') continue;
    list.push({ name, in: 'header', required: false, description, schema: { type: 'string' } });
  }
  return list;
}

const BODY_MEDIA: Record<RequestBodySpec['kind'], string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  'octet-stream': 'application/octet-stream',
  audio: 'audio/*',
};

function requestBody(route: RouteSpec, components: SchemaComponents): Json | undefined {
  const body = route.request.body;
  if (!body) return undefined;
  const media = BODY_MEDIA[body.kind];
  const schema = body.schema
    ? components.ref(body.schema, `${capitalize(route.operationId)}Body`)
    : { type: 'string', contentMediaType: media };
  const limit = body.maxBytes === undefined ? '' : `Max ${body.maxBytes} bytes (413 above).`;
  return {
    required: body.required,
    ...(body.description || limit
      ? { description: [body.description, limit].filter(Boolean).join(' ') }
      : {}),
    content: { [media]: { schema } },
  };
}

const MARKER_MEDIA: Record<Exclude<ResponseSpec['body'], z.ZodType>, string | null> = {
  text: 'text/plain',
  html: 'text/html',
  yaml: 'application/yaml',
  'event-stream': 'text/event-stream',
  bytes: 'application/octet-stream',
  file: null, // fileContent()
  empty: null,
};

/**
 * A stored file's answer: its own type, whatever it is (the media type range "any", which OpenAPI allows),
 * with the common ones named, and `application/octet-stream` when the type is unknown.
 */
const FILE_MEDIA = [
  'text/plain',
  'text/markdown',
  'application/pdf',
  'image/png',
  'image/jpeg',
  'application/octet-stream',
];
function fileContent(): Record<string, Json> {
  const bytes = (media: string) => ({ schema: { type: 'string', contentMediaType: media } });
  return {
    ...Object.fromEntries(FILE_MEDIA.map((media) => [media, bytes(media)])),
    '*/*': { schema: { type: 'string' } },
  };
}

function response(route: RouteSpec, status: string, spec: ResponseSpec, components: SchemaComponents): Json {
  const content: Record<string, Json> = {};
  if (spec.body instanceof z.ZodType) {
    content['application/json'] = {
      schema: components.ref(spec.body, `${capitalize(route.operationId)}${status}`),
    };
  } else if (spec.body === 'file') {
    Object.assign(content, fileContent());
  } else {
    const media = MARKER_MEDIA[spec.body];
    if (media && spec.itemSchema) {
      // OpenAPI 3.1 has no stream item schema; the schema describes one message of the stream.
      content[media] = { schema: components.ref(spec.itemSchema, `${capitalize(route.operationId)}Item`) };
    } else if (media) content[media] = { schema: { type: 'string', contentMediaType: media } };
  }
  if (spec.alsoJson) {
    content['application/json'] = {
      schema: components.ref(spec.alsoJson, `${capitalize(route.operationId)}${status}Json`),
    };
  }
  if (spec.alsoBytes) {
    content['application/octet-stream'] = {
      schema: { type: 'string', contentMediaType: 'application/octet-stream' },
    };
  }
  const headers = spec.headers
    ? Object.fromEntries(
        Object.entries(spec.headers).map(([name, h]) => [
          name,
          { description: h.description, schema: { type: h.type } },
        ]),
      )
    : undefined;
  return {
    description: spec.description,
    ...(headers ? { headers } : {}),
    ...(Object.keys(content).length > 0 ? { content } : {}),
  };
}

function operation(route: RouteSpec, components: SchemaComponents): Json {
  const params = parameters(route, components);
  const body = requestBody(route, components);
  const op: Json = {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    security: security(route),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: Object.fromEntries(
      Object.entries(route.responses).map(([status, spec]) => [
        status,
        response(route, status, spec, components),
      ]),
    ),
  };
  if (route.extension) op['x-agentdesk-extension'] = true;
  return op;
}

/** Names of components reachable through `$ref` from `root`. */
function reachable(root: unknown, schemas: Record<string, Json>): Set<string> {
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF)) {
        const name = value.slice(SCHEMA_REF.length);
        if (!seen.has(name)) {
          seen.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit(root);
  return seen;
}

export function buildOpenApiDocument(options: OpenApiOptions = {}): Json {
  const components = new SchemaComponents();
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, components);
  }
  const schemas = components.build();
  const keep = reachable(paths, schemas);
  const base = options.serverUrl?.replace(/\/+$/, '') ?? '';
  return {
    openapi: '3.1.0',
    info: {
      title: 'Per-Person Agent Conversation API',
      version: '2.0',
      description: DESCRIPTION,
    },
    servers: [{ url: base || '/', description: 'This service.' }],
    tags: TAGS,
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => keep.has(name))),
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description:
            'Authorization code with PKCE (`S256` only). Codes are valid 60 s, access tokens 1 h, refresh tokens 90 days and rotate on every use.',
          flows: {
            authorizationCode: {
              authorizationUrl: `${base}${routePath(apiRoutes.authorize)}`,
              tokenUrl: `${base}${routePath(apiRoutes.token)}`,
              refreshUrl: `${base}${routePath(apiRoutes.token)}`,
              scopes: SCOPE_DESCRIPTIONS,
            },
          },
        },
        agentToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'gat_...',
          description: `Agent token (prefix \`gat_\`): reaches only its own agent, on \`${API_BASE}/agents/{id}/...\`. Lifetime: until revoked (our choice). Access tokens last ${LIMITS.accessTokenTtlSeconds} s.`,
        },
      },
    },
  };
}

/**
 * The document as YAML, as served at /openapi.yaml and committed in docs/openapi.yaml: no line folded, no
 * anchors for a schema used twice. Written with js-yaml, the parser the host reads it with
 * (extension-operations.ts): the service writes it at its first request, on its event loop, in a third of
 * the time the `yaml` package took (45 against 131 ms).
 */
export function openApiYaml(options: OpenApiOptions = {}): string {
  return dump(buildOpenApiDocument(options), { lineWidth: -1, noRefs: true, quotingType: '"' });
}
