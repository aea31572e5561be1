import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServerState } from '../../shared/api';
import { mcpTransport } from '../agent-kit/mcp-transport';
import type { AgentConfigArea } from './agent-config-area';
import type { McpServer } from './mcp-servers';

/** How long one server has to connect and list its tools (a first `npx` of a server downloads it). */
export const MCP_CHECK_MS = 30_000;

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
        await client.connect(mcpTransport(server, workspace), { timeout: timeoutMs });
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
