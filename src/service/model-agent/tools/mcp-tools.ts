import type { McpServer } from '@agentclientprotocol/sdk/unstable';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { jsonSchema, type JSONSchema7 } from 'ai';
import { mcpTransport } from '../../agent-kit/mcp-transport';
import { capText, type AgentTool } from './agent-tool';

/** The session's MCP servers, connected: their tools, and how to close them. */
export interface McpConnection {
  tools: AgentTool<Record<string, unknown>>[];
  /** Servers that could not be reached, in words, so the model (and the person) know. */
  problems: string[];
  close(): Promise<void>;
}

const pairs = (list: { name: string; value: string }[] | undefined) =>
  Object.fromEntries((list ?? []).map((p) => [p.name, p.value]));

/** The ACP description of a server as the shared transport takes it (ACP lists env and headers as pairs). */
function transportOf(server: McpServer, cwd: string) {
  if ('command' in server)
    return mcpTransport({ command: server.command, args: server.args, env: pairs(server.env) }, cwd);
  if (server.type === 'acp') throw new Error('MCP over ACP is not supported by this agent.');
  return mcpTransport({ type: server.type, url: server.url, headers: pairs(server.headers) }, cwd);
}

/** A tool name the providers accept (letters, digits, _ and -, at most 64), unique per server. */
function toolName(server: string, tool: string): string {
  return `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

/** The text of an MCP tool result: its text parts, and a word for each other part. */
function resultText(content: unknown): string {
  const parts = Array.isArray(content) ? (content as { type: string; text?: string }[]) : [];
  return parts
    .map((part) => (part.type === 'text' ? (part.text ?? '') : `[${part.type} content]`))
    .join('\n');
}

/**
 * Connects every MCP server of the session (stdio, http, sse) with the official MCP SDK client and
 * offers each of its tools as an agent tool that asks first (an MCP tool can do anything). This
 * includes the service's lent tools server, whose list is already the channel's effective list.
 */
export async function connectMcpServers(
  servers: McpServer[],
  cwd: string,
  timeoutMs = 30_000,
): Promise<McpConnection> {
  const clients: Client[] = [];
  const tools: AgentTool<Record<string, unknown>>[] = [];
  const problems: string[] = [];
  await Promise.all(
    servers.map(async (server) => {
      const client = new Client({ name: 'agentdesk-model-agent', version: '1.0.0' });
      try {
        await client.connect(transportOf(server, cwd), { timeout: timeoutMs });
        clients.push(client);
        const listed = await client.listTools(undefined, { timeout: timeoutMs });
        for (const tool of listed.tools) {
          tools.push({
            name: toolName(server.name, tool.name),
            description: tool.description ?? `${tool.name}, a tool of the ${server.name} MCP server.`,
            inputSchema: jsonSchema<Record<string, unknown>>(tool.inputSchema as JSONSchema7),
            kind: 'other',
            asks: true,
            title: () => `${tool.title ?? tool.name} (${server.name})`,
            async run(input, signal) {
              const result = await client.callTool({ name: tool.name, arguments: input }, undefined, {
                signal,
                timeout: 10 * 60_000,
              });
              const text = capText(resultText(result.content));
              if (result.isError) throw new Error(text || `${tool.name} failed.`);
              return { output: text || '(no output)' };
            },
          });
        }
      } catch (error) {
        problems.push(
          `The MCP server ${server.name} could not be reached: ${error instanceof Error ? error.message : String(error)}`,
        );
        await client.close().catch(() => undefined);
      }
    }),
  );
  return {
    tools,
    problems,
    close: async () => {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    },
  };
}
