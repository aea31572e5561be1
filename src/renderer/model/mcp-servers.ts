import {
  describeZodError,
  LIMITS,
  MCP_NAME_MAX,
  McpPutBody,
  McpServer,
  McpServerName,
  type McpServerInput,
} from '../../shared/api';
import { slugify } from './slug';

/**
 * MCP servers as the studio edits them: checked with the shared schema before the whole list is
 * sent, imported from the usual mcp.json shapes, and shown with secrets masked. Pure.
 */
export type McpListCheck = { ok: true; servers: McpServer[] } | { ok: false; problems: string[] };

/** Every rule of PUT mcp, plus one the schema cannot see: names are unique. */
export function checkMcpList(servers: readonly unknown[]): McpListCheck {
  const problems: string[] = [];
  if (servers.length > LIMITS.mcpServersMax)
    problems.push(`At most ${LIMITS.mcpServersMax} servers; this list has ${servers.length}.`);
  const parsed: McpServer[] = [];
  servers.forEach((server, index) => {
    const one = McpServer.safeParse(server);
    const name = nameOf(server) || `server ${index + 1}`;
    if (one.success) parsed.push(one.data);
    else problems.push(`${name}: ${describeZodError(one.error)}`);
  });
  const seen = new Set<string>();
  for (const server of servers) {
    const name = nameOf(server);
    if (!name) continue;
    if (seen.has(name)) problems.push(`Two servers are named "${name}"; names must be unique.`);
    seen.add(name);
  }
  if (problems.length > 0) return { ok: false, problems: [...new Set(problems)] };
  const body = McpPutBody.safeParse({ servers: parsed });
  return body.success
    ? { ok: true, servers: body.data.servers }
    : { ok: false, problems: [describeZodError(body.error)] };
}

/**
 * What is wrong with a server name, in a sentence, with a name that would do ("Everything Server" ->
 * "everything-server"), before it enters the list; null when it is fine.
 */
export function mcpNameProblem(
  name: string,
  taken: readonly string[],
): { problem: string; suggestion: string | null } | null {
  const suggestion = slugify(name, MCP_NAME_MAX, true) || null;
  const offer = (problem: string) => ({
    problem,
    suggestion: suggestion && suggestion !== name && !taken.includes(suggestion) ? suggestion : null,
  });
  if (!name.trim()) return { problem: 'Give the server a name.', suggestion: null };
  if (taken.includes(name)) return offer(`Another server is already named “${name}”.`);
  const checked = McpServerName.safeParse(name);
  return checked.success ? null : offer(checked.error.issues[0]?.message ?? 'This name cannot be used.');
}

const nameOf = (server: unknown): string =>
  typeof server === 'object' && server !== null && typeof (server as { name?: unknown }).name === 'string'
    ? (server as { name: string }).name
    : '';

export type McpImport = { ok: true; servers: McpServerInput[] } | { ok: false; problem: string };

/**
 * Reads an mcp.json text in either usual form: `{"mcpServers": {"name": {...}}}` (Claude, Cursor,
 * goose) or `{"servers": [{"name": ...}]}` (this API's own). Key names become server names.
 */
export function parseMcpImport(text: string): McpImport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'This is not JSON. Paste the contents of an mcp.json file.' };
  }
  if (typeof data !== 'object' || data === null)
    return { ok: false, problem: 'Expected an object with "mcpServers" or "servers".' };
  const record = data as { mcpServers?: unknown; servers?: unknown };
  if (Array.isArray(record.servers)) return { ok: true, servers: record.servers.map(fromEntry) };
  if (
    typeof record.mcpServers === 'object' &&
    record.mcpServers !== null &&
    !Array.isArray(record.mcpServers)
  ) {
    const servers = Object.entries(record.mcpServers as Record<string, unknown>).map(([name, entry]) =>
      fromEntry({ ...(typeof entry === 'object' && entry !== null ? entry : {}), name }),
    );
    return { ok: true, servers };
  }
  return {
    ok: false,
    problem: 'Expected an object with "mcpServers" (a map by name) or "servers" (a list).',
  };
}

/** One entry of an imported file, keeping only the fields of the API's two shapes. */
function fromEntry(entry: unknown): McpServerInput {
  const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
  const name = typeof e.name === 'string' ? e.name : '';
  if (typeof e.command === 'string') {
    return {
      name,
      command: e.command,
      ...(Array.isArray(e.args) ? { args: e.args.map(String) } : {}),
      ...(isStringMap(e.env) ? { env: e.env } : {}),
    };
  }
  // Other clients say `streamable-http` / `streamableHttp`; the API calls that `http`.
  const type = e.type === 'sse' ? 'sse' : 'http';
  return {
    name,
    type,
    url: typeof e.url === 'string' ? e.url : typeof e.serverUrl === 'string' ? e.serverUrl : '',
    ...(isStringMap(e.headers) ? { headers: e.headers } : {}),
  };
}

const isStringMap = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((v) => typeof v === 'string');

/** A secret as shown on screen: its first two characters and dots, never the whole value. */
export function maskSecret(value: string): string {
  if (value.length <= 4) return '••••';
  return `${value.slice(0, 2)}${'•'.repeat(Math.min(8, value.length - 2))}`;
}

/** `KEY=value` lines (env, headers as `Name: value`) to a map and back, for editing in a text box. */
export function parsePairs(text: string, separator: '=' | ':'): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf(separator);
    if (at <= 0) continue;
    pairs[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return pairs;
}

export function formatPairs(pairs: Record<string, string> | undefined, separator: '=' | ':'): string {
  return Object.entries(pairs ?? {})
    .map(([k, v]) => `${k}${separator === ':' ? ': ' : '='}${v}`)
    .join('\n');
}
