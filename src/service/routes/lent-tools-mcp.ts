import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { apiRoutes } from '../../shared/api';
import { callLentTool, checkLentToolsToken, isToolChannel, listLentTools } from '../agent-config/lent-tools';
import type { ToolChannelName } from '../agent-config/service-tools';
import { WorkspaceFiles } from '../agent-config/workspace-files';
import { readBearer, unauthorized } from '../auth/bearer';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { honoPath, registerRoute } from '../http/register-route';
import { signFileUrl } from '../library/signed-urls';

const BODY_MAX = apiRoutes.lentToolsMcp.request.body.maxBytes;

/**
 * The MCP server through which the service lends its tools to an agent:
 * `/gs-mcp/{agentId}/{channel}` with the bearer given in `session/new`. The official MCP SDK
 * serves it over Streamable HTTP, stateless (a fresh server per request, JSON answers), so protocol
 * versions, capabilities and errors are the SDK's.
 */
export function lentToolsMcpRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  const serve = async (c: Context<AppEnv>) => {
    const { agentId = '', channel = '' } = c.req.param();
    const area = ctx.agentConfig;
    const token = readBearer(c.req.header('Authorization'));
    if (!isToolChannel(channel) || !token || !checkLentToolsToken(area.signingKey, agentId, channel, token)) {
      // With the challenge every 401 carries (RFC 9110 §15.5.2), like the API's own bearer routes.
      return unauthorized(c, token !== null);
    }
    const agent = await ctx.identity.agents.find(agentId);
    if (!agent) return c.text('Not found', 404);
    if (Number(c.req.header('Content-Length') ?? 0) > BODY_MAX) return c.text('Payload too large', 413);

    const method = c.req.method;
    if (method !== 'POST' && method !== 'DELETE') {
      // A stateless server offers no stream to GET (MCP: 405 says so, and the client stops asking; an empty
      // stream that ends had every agent's MCP client open it again each second, for as long as it ran).
      return c.json(
        { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null },
        405,
        {
          Allow: 'POST, DELETE',
        },
      );
    }
    const server = lentToolsServer(ctx, { agentId, channel, personId: agent.personId, engine: agent.engine });
    // Stateless: no session id, and JSON answers instead of a stream per request.
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      void server.close();
    }
  };
  // POST carries MCP's messages, read by the SDK itself; DELETE gets the SDK's own answer too; every other
  // method 405 with `Allow: POST, DELETE` (left to the app's 404/405 handler, the Allow would name POST
  // alone, the only method of the route table's entry).
  registerRoute(app, apiRoutes.lentToolsMcp, serve, { unchecked: true });
  app.all(honoPath(apiRoutes.lentToolsMcp.path), serve);

  return app;
}

interface LentToolsCaller {
  agentId: string;
  channel: ToolChannelName;
  personId: string;
  engine: string;
}

/** One MCP server answering `tools/list` and `tools/call` for one agent on one channel. */
function lentToolsServer(ctx: ServiceContext, caller: LentToolsCaller): Server {
  const area = ctx.agentConfig;
  const server = new Server(
    { name: 'agentdesk-gs', version: '1.0.0' },
    { capabilities: { tools: { listChanged: false } } },
  );
  const vetoes = async () => (await area.store.read(caller.agentId)).vetoes;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: listLentTools({ vetoes: await vetoes(), channel: caller.channel }),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const machine = area.service.hasMachine(caller.engine);
    const result = await callLentTool(
      {
        personId: caller.personId,
        vetoes: await vetoes(),
        channel: caller.channel,
        library: area.library,
        connectors: area.connectors,
        workspace: machine ? new WorkspaceFiles(area.service.layoutOf(caller.agentId).work) : null,
        signUrl: (fileId) => signFileUrl(area.signingKey, ctx.baseUrl, fileId, ctx.clock.now()),
      },
      request.params.name,
      request.params.arguments ?? {},
    );
    return { ...result };
  });
  return server;
}
