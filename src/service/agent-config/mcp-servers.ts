import { isLocalMcpUrl } from '../../shared/api';

/** The two McpServer shapes of the spec, as stored and returned. */
export interface RemoteMcpServer {
  name: string;
  type: 'http' | 'sse';
  url: string;
  headers?: Record<string, string>;
}

export interface LocalMcpServer {
  name: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

export type McpServer = RemoteMcpServer | LocalMcpServer;

export const MCP_NAME = /^[a-z0-9][a-z0-9_-]{0,40}$/;
export const MAX_MCP_SERVERS = 20;
/** The service's own server of lent tools is given to the agent under this name. */
const RESERVED_NAME = 'agentdesk';

export type McpValidation = { ok: true; servers: McpServer[] } | { ok: false; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringMap(value: unknown): Record<string, string> | null {
  if (!isRecord(value)) return null;
  for (const v of Object.values(value)) if (typeof v !== 'string') return null;
  return value as Record<string, string>;
}

/**
 * Validate a whole `servers` list. Every failure message names the server (by name, or by position
 * when the name itself is the problem) so a person can find it in their mcp.json. Unknown fields are
 * dropped, as zod objects do.
 */
export function validateMcpServers(input: unknown): McpValidation {
  if (!Array.isArray(input)) return { ok: false, message: '"servers" must be an array of MCP servers.' };
  if (input.length > MAX_MCP_SERVERS) {
    return { ok: false, message: `At most ${MAX_MCP_SERVERS} MCP servers per agent; got ${input.length}.` };
  }
  const servers: McpServer[] = [];
  const names = new Set<string>();
  for (let i = 0; i < input.length; i++) {
    const result = validateOne(input[i], i);
    if (typeof result === 'string') return { ok: false, message: result };
    if (names.has(result.name)) {
      return {
        ok: false,
        message: `MCP server "${result.name}" appears more than once; names must be unique.`,
      };
    }
    names.add(result.name);
    servers.push(result);
  }
  return { ok: true, servers };
}

function validateOne(raw: unknown, index: number): McpServer | string {
  const position = `MCP server #${index + 1}`;
  if (!isRecord(raw)) return `${position} must be an object.`;
  const name = raw['name'];
  if (typeof name !== 'string' || name === '') return `${position} needs a "name".`;
  if (!MCP_NAME.test(name)) {
    return `${position} has the name "${name.slice(0, 60)}", which must match ^[a-z0-9][a-z0-9_-]{0,40}$.`;
  }
  const label = `MCP server "${name}"`;
  if (name === RESERVED_NAME) return `${label}: the name is reserved for the service's own tools.`;
  const hasUrl = 'url' in raw;
  const hasCommand = 'command' in raw;
  if (hasUrl && hasCommand) return `${label} has both "url" and "command"; give one of them.`;
  if (hasUrl) {
    const url = raw['url'];
    if (typeof url !== 'string') return `${label}: "url" must be a string.`;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return `${label}: "${url.slice(0, 200)}" is not a valid URL.`;
    }
    // Plain http only to the agent's own machine, for local development (our extension of the spec).
    if (parsed.protocol !== 'https:' && !isLocalMcpUrl(url))
      return parsed.protocol === 'http:'
        ? `${label}: the url must use https (plain http only to localhost or 127.0.0.1).`
        : `${label}: the url must use https, not ${parsed.protocol.replace(':', '')}.`;
    const type = raw['type'] ?? 'http';
    if (type !== 'http' && type !== 'sse') return `${label}: "type" must be "http" or "sse".`;
    const server: RemoteMcpServer = { name, type, url };
    if (raw['headers'] !== undefined) {
      const headers = stringMap(raw['headers']);
      if (!headers) return `${label}: "headers" must map header names to strings.`;
      server.headers = headers;
    }
    return server;
  }
  if (hasCommand) {
    const command = raw['command'];
    if (typeof command !== 'string' || command.trim() === '')
      return `${label}: "command" must be a non-empty string.`;
    const server: LocalMcpServer = { name, command };
    if (raw['args'] !== undefined) {
      const args = raw['args'];
      if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) {
        return `${label}: "args" must be an array of strings.`;
      }
      server.args = args as string[];
    }
    if (raw['env'] !== undefined) {
      const env = stringMap(raw['env']);
      if (!env) return `${label}: "env" must map variable names to strings.`;
      server.env = env;
    }
    return server;
  }
  return `${label} needs either "url" (remote) or "command" (local).`;
}

export function isRemote(server: McpServer): server is RemoteMcpServer {
  return 'url' in server;
}
