import { z } from 'zod';
import { ToolChannel } from '../common';
import { ErrorBody } from '../errors';
import { AgentParams, ConversationParams, IdParams } from '../requests';
import { McpJsonRpcAnswer, OAuthServerMetadata } from '../responses';
import {
  AGENT,
  CONVERSATION,
  defineRoute,
  invalid,
  JSON_BODY_MAX,
  noMachine,
  notFound,
  ok,
} from './define-route';

/** Where a fork ends: the first `hasta` messages of the original, or every message through `turnId`. */
export const ForkConversationBody = z.union([
  z.strictObject({ hasta: z.number().int().min(1) }),
  z.strictObject({ turnId: z.string().min(1).max(200) }),
]);
export type ForkConversationBody = z.infer<typeof ForkConversationBody>;
export const ConversationForked = z.looseObject({ id: z.string(), titulo: z.string() });
export type ConversationForked = z.infer<typeof ConversationForked>;

/** Whether one of the agent's MCP servers answered: its tools, or why not in words (`detalle`). */
export const McpServerState = z.looseObject({
  name: z.string(),
  conectado: z.boolean(),
  herramientas: z.array(z.string()),
  detalle: z.string().optional(),
});
export type McpServerState = z.infer<typeof McpServerState>;
export const McpStatusResponse = z.looseObject({ servidores: z.array(McpServerState) });
export type McpStatusResponse = z.infer<typeof McpStatusResponse>;

/** Where an Archivo's signed `url` points (no bearer: the signature is the credential). */
function signedFileRoute<const Id extends string, const Path extends string>(
  operationId: Id,
  path: Path,
  summary: string,
) {
  return defineRoute(
    {
      operationId,
      method: 'GET',
      path,
      tag: 'files',
      summary,
      description:
        'Our extension: the address the `url` of an Archivo points at, `/files/{id}?exp=<unix seconds>&sig=<HMAC>`. No bearer: the signature over (id, exp) is the credential. A tampered URL gives 403 `firma_invalida`, an expired one 403 `url_caducada` (our choice). Serves the bytes with the file’s `Content-Type`, inert (`nosniff`, sandbox CSP).',
      scope: null,
      credential: 'none',
      request: {
        params: IdParams,
        query: z.object({ exp: z.string().regex(/^\d+$/), sig: z.string().min(1) }),
      },
      responses: {
        200: ok(
          'The bytes, under the file’s own `Content-Type` (its `mimeType`: what the upload said, else a guess from the name, else `application/octet-stream`).',
          'file',
        ),
        403: ok('Tampered (`firma_invalida`) or expired (`url_caducada`) URL.', ErrorBody),
        404: notFound,
      },
      extension: true,
    },
    { readsOwnQuery: true },
  ); // registered unchecked: a bad signature is 403
}

/** Our extensions: not in the spec, each marked `extension: true` (kept out of the spec-coverage list).
 * Clients must cope with a server that lacks them. */
export const extensionsSection = [
  defineRoute({
    operationId: 'oauthServerMetadata',
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    tag: 'oauth',
    summary: 'OAuth authorization server metadata (RFC 8414)',
    description: 'Our extension, so OAuth libraries can discover the endpoints. Public.',
    scope: null,
    credential: 'none',
    request: {},
    responses: { 200: ok('The metadata.', OAuthServerMetadata) },
    extension: true,
  }),
  signedFileRoute('downloadSignedFile', '/files/{id}', 'Download an account file through its signed URL'),
  // Links handed out before the path was plain English stay valid for their 6 hours.
  signedFileRoute(
    'downloadSignedFileOldPath',
    '/archivos/{id}',
    'The earlier address of a signed URL (before `/files/{id}`), still served',
  ),
  defineRoute({
    operationId: 'lentToolsMcp',
    method: 'POST',
    path: '/gs-mcp/{agentId}/{channel}',
    tag: 'agents',
    summary: 'The MCP server that lends the service’s tools (`tools.gs`) to one agent on one channel',
    description:
      'Our extension, for agent processes, not for apps: MCP over Streamable HTTP (stateless, JSON answers; DELETE gets the MCP SDK’s answer too; GET, for which a stateless server has no stream, and any other method, once the bearer is checked, a 405 in the SDK’s shape: a JSON-RPC error with `Allow: POST, DELETE`). The address and its bearer are given to the agent in `session/new`; the bearer is an HMAC over (agent, channel), not an OAuth or agent token. It lists only the tools in effect on that channel, and refuses a call to a vetoed one.',
    scope: null,
    credential: 'none',
    request: {
      params: z.object({ agentId: z.string(), channel: ToolChannel }),
      body: { kind: 'json', required: true, maxBytes: 256 * 1024, description: 'A JSON-RPC message of MCP.' },
    },
    responses: {
      200: ok('The JSON-RPC answer.', McpJsonRpcAnswer),
      401: ok('No bearer, or not the one given for this agent and channel.', 'text'),
      404: ok('No such agent.', 'text'),
      413: ok('A body over 256 KiB.', 'text'),
    },
    extension: true,
  }),
  defineRoute({
    operationId: 'getAgentMcpStatus',
    method: 'GET',
    path: `${AGENT}/mcp/status`,
    tag: 'agent-config',
    summary: 'Whether each MCP server of the agent answers, and its tools',
    description:
      "Our extension (docs/extensions.md). Connects to each server of the list with the official MCP client, as the agent would (a local command runs in the agent's workspace), lists its tools and closes; each answers within 30 s or is reported with why not (`detalle`, in words). Clients detect it by this operation in `/openapi.yaml`.",
    scope: 'agents:read',
    credential: 'agent-or-oauth',
    request: { params: AgentParams },
    responses: {
      200: ok("One state per server, in the list's order.", McpStatusResponse),
      404: notFound,
      409: noMachine,
    },
    extension: true,
  }),
  defineRoute({
    operationId: 'forkConversation',
    method: 'POST',
    path: `${CONVERSATION}/fork`,
    tag: 'conversations',
    summary: 'Fork a conversation: a new one that starts with its messages up to a point',
    description:
      'Our extension (docs/extensions.md). Body `{hasta}` keeps the first `hasta` messages, `{turnId}` every message through that turn. The new conversation belongs to the same agent, keeps the model chosen for the original, is titled `<title> (branch)`, and its agent is given the carried-over messages before the first prompt of its session there. Clients detect it by this operation in `/openapi.yaml`.',
    scope: 'agents:write',
    credential: 'oauth',
    request: {
      params: ConversationParams,
      body: { kind: 'json', schema: ForkConversationBody, required: true, maxBytes: JSON_BODY_MAX },
    },
    responses: {
      201: ok('The new conversation.', ConversationForked),
      400: invalid('Neither `hasta` nor `turnId`, `hasta` past the last message, or an unknown `turnId`.'),
      404: notFound,
      409: noMachine,
    },
    extension: true,
  }),
] as const;
