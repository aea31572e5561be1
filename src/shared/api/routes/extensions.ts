import { z } from 'zod';
import { ToolChannel } from '../common';
import { ErrorBody } from '../errors';
import { IdParams } from '../requests';
import { McpJsonRpcAnswer, OAuthServerMetadata } from '../responses';
import { defineRoute, notFound, ok } from './define-route';

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
  defineRoute(
    {
      operationId: 'downloadSignedFile',
      method: 'GET',
      path: '/archivos/{id}',
      tag: 'files',
      summary: 'Download an account file through its signed URL',
      description:
        'Our extension: the address the `url` of an Archivo points at, `/archivos/{id}?exp=<unix seconds>&sig=<HMAC>`. No bearer: the signature over (id, exp) is the credential. A tampered URL gives 403 `firma_invalida`, an expired one 403 `url_caducada` (our choice). Serves the bytes with the file’s `Content-Type`, inert (`nosniff`, sandbox CSP).',
      scope: null,
      credential: 'none',
      request: {
        params: IdParams,
        query: z.object({ exp: z.string().regex(/^\d+$/), sig: z.string().min(1) }),
      },
      responses: {
        200: ok('The bytes.', 'bytes'),
        403: ok('Tampered (`firma_invalida`) or expired (`url_caducada`) URL.', ErrorBody),
        404: notFound,
      },
      extension: true,
    },
    { readsOwnQuery: true },
  ), // registered unchecked: a bad signature is 403
  defineRoute({
    operationId: 'lentToolsMcp',
    method: 'POST',
    path: '/gs-mcp/{agentId}/{channel}',
    tag: 'agents',
    summary: 'The MCP server that lends the service’s tools (`tools.gs`) to one agent on one channel',
    description:
      'Our extension, for agent processes, not for apps: MCP over Streamable HTTP (stateless, JSON answers; GET and DELETE get the MCP SDK’s answers too, and any other method, once the bearer is checked, the SDK’s 405: a JSON-RPC error with `Allow: GET, POST, DELETE`). The address and its bearer are given to the agent in `session/new`; the bearer is an HMAC over (agent, channel), not an OAuth or agent token. It lists only the tools in effect on that channel, and refuses a call to a vetoed one.',
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
] as const;
