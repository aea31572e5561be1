import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** An MCP server as a client reaches it: a command run in a folder, or an address over http or sse. */
export type McpEndpoint =
  | { command: string; args?: string[]; env?: Record<string, string> }
  | { type: 'http' | 'sse'; url: string; headers?: Record<string, string> };

/**
 * The official MCP client's transport to one server: a command runs in `cwd` with the process's environment
 * plus its own; an address is spoken to over Streamable HTTP or SSE with its headers. The model agent uses it
 * for its session's servers, the service to check an agent's saved ones, so both reach them alike.
 */
export function mcpTransport(server: McpEndpoint, cwd: string): Transport {
  if ('command' in server) {
    return new StdioClientTransport({
      command: server.command,
      args: server.args ?? [],
      env: { ...(process.env as Record<string, string>), ...server.env },
      cwd,
      stderr: 'ignore',
    });
  }
  const requestInit = { headers: server.headers ?? {} };
  return server.type === 'sse'
    ? new SSEClientTransport(new URL(server.url), { requestInit })
    : new StreamableHTTPClientTransport(new URL(server.url), { requestInit });
}
