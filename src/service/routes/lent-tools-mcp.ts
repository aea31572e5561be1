import type { Context } from 'hono';
import { Hono } from 'hono';
import {
  LENT_TOOLS_PATH,
  callLentTool,
  checkLentToolsToken,
  isToolChannel,
  listLentTools,
} from '../agents/lent-tools';
import { WorkspaceFiles } from '../agents/workspace-files';
import { readBearer } from '../auth/bearer';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { decodeUtf8, readBodyLimited } from '../http/read-body';
import { signFileUrl } from '../library/signed-urls';

const PROTOCOL_VERSION = '2025-06-18';
const BODY_MAX = 256 * 1024;

interface RpcRequest {
  jsonrpc: '2.0';
  id?: string | number | null;
  method: string;
  params?: Record<string, unknown>;
}

/**
 * The MCP server (Streamable HTTP, JSON answers, no server-initiated stream) through which the service
 * lends its tools to an agent: `POST /gs-mcp/{agentId}/{channel}` with the bearer given in `session/new`.
 */
export function lentToolsMcpRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const rpcError = (
    c: Context,
    id: RpcRequest['id'],
    code: number,
    message: string,
    status: 200 | 400 = 200,
  ) => c.json({ jsonrpc: '2.0', id: id ?? null, error: { code, message } }, status);

  app.on(['GET', 'DELETE'], `${LENT_TOOLS_PATH}/:agentId/:channel`, (c) =>
    c.body(null, 405, { Allow: 'POST' }),
  );

  app.post(`${LENT_TOOLS_PATH}/:agentId/:channel`, async (c) => {
    const { agentId, channel } = c.req.param();
    const area = ctx.agentConfig;
    const token = readBearer(c.req.header('Authorization'));
    if (!isToolChannel(channel) || !token || !checkLentToolsToken(area.signingKey, agentId, channel, token)) {
      return c.text('Unauthorized', 401);
    }
    const agent = ctx.identity.agents.find(agentId);
    if (!agent) return c.text('Not found', 404);
    const bytes = await readBodyLimited(c.req.raw, BODY_MAX);
    const raw = bytes === 'too_large' ? null : decodeUtf8(bytes);
    let request: RpcRequest;
    try {
      request = JSON.parse(raw ?? '') as RpcRequest;
    } catch {
      return rpcError(c, null, -32700, 'Parse error', 400);
    }
    if (
      typeof request !== 'object' ||
      request === null ||
      Array.isArray(request) ||
      typeof request.method !== 'string'
    ) {
      return rpcError(c, null, -32600, 'Invalid request', 400);
    }
    // A notification (no id) needs no answer.
    if (request.id === undefined) return c.body(null, 202);

    const reply = (result: unknown) => c.json({ jsonrpc: '2.0', id: request.id, result });
    const vetoes = area.store.read(agentId).vetoes;
    switch (request.method) {
      case 'initialize':
        return reply({
          protocolVersion:
            typeof request.params?.['protocolVersion'] === 'string'
              ? request.params['protocolVersion']
              : PROTOCOL_VERSION,
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: 'agentdesk-gs', version: '1.0.0' },
        });
      case 'ping':
        return reply({});
      case 'tools/list':
        return reply({ tools: listLentTools({ vetoes, channel }) });
      case 'tools/call': {
        const name = typeof request.params?.['name'] === 'string' ? request.params['name'] : '';
        const args = (request.params?.['arguments'] ?? {}) as Record<string, unknown>;
        const machine = area.service.hasMachine(agent.engine);
        return reply(
          await callLentTool(
            {
              personId: agent.personId,
              vetoes,
              channel,
              library: area.library,
              connectors: area.connectors,
              workspace: machine ? new WorkspaceFiles(area.service.layoutOf(agentId).work) : null,
              signUrl: (fileId) => signFileUrl(area.signingKey, ctx.baseUrl, fileId, ctx.clock.now()),
            },
            name,
            args,
          ),
        );
      }
      default:
        return rpcError(c, request.id, -32601, `Method not found: ${request.method}`);
    }
  });

  return app;
}
