import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerState } from '../../shared/api';
import type { AgentConfigArea } from './agent-config-area';
import type { McpServer } from './mcp-servers';

/** How long one server has to connect and list its tools (a first `npx` of a server downloads it). */
export const MCP_CHECK_MS = 30_000;

function transportOf(server: McpServer, workspace: string): Transport {
  if ('command' in server) {
    return new StdioClientTransport({
      command: server.command,
      args: server.args ?? [],
      env: { ...(process.env as Record<string, string>), ...server.env },
      cwd: workspace,
      stderr: 'ignore',
    });
  }
  const requestInit = { headers: server.headers ?? {} };
  return server.type === 'sse'
    ? new SSEClientTransport(new URL(server.url), { requestInit })
    : new StreamableHTTPClientTransport(new URL(server.url), { requestInit });
}

/** Why a server did not answer, in words a person can act on. */
function why(server: McpServer, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  if ('command' in server && code === 'ENOENT') return `The command "${server.command}" was not found.`;
  if (/timed? ?out/i.test(message)) return `No answer within ${MCP_CHECK_MS / 1000} seconds.`;
  if (/ECONNREFUSED|fetch failed/i.test(message) && 'url' in server)
    return `Nothing answers at ${new URL(server.url).origin}.`;
  return message || 'It closed before answering.';
}

/**
 * Connects to each server with the official MCP client, as the agent would, lists its tools and closes:
 * connected with the tool names, or not with why. All at once, each within `MCP_CHECK_MS`.
 */
export function checkMcpServers(
  servers: readonly McpServer[],
  workspace: string,
  timeoutMs = MCP_CHECK_MS,
): Promise<McpServerState[]> {
  return Promise.all(
    servers.map(async (server): Promise<McpServerState> => {
      const client = new Client({ name: 'agentdesk-mcp-check', version: '1.0.0' });
      try {
        await client.connect(transportOf(server, workspace), { timeout: timeoutMs });
        const listed = await client.listTools(undefined, { timeout: timeoutMs });
        return { name: server.name, conectado: true, herramientas: listed.tools.map((t) => t.name) };
      } catch (error) {
        return { name: server.name, conectado: false, herramientas: [], detalle: why(server, error) };
      } finally {
        await client.close().catch(() => undefined);
      }
    }),
  );
}

/** Our extension GET …/mcp/status: the agent's saved servers, checked from its workspace. */
export async function agentMcpStates(
  area: Pick<AgentConfigArea, 'store' | 'service'>,
  agentId: string,
): Promise<McpServerState[]> {
  const { mcp } = await area.store.read(agentId);
  return checkMcpServers(mcp, area.service.layoutOf(agentId).work);
}
