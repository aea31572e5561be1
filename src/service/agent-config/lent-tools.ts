import { createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { apiRoutes, routePath } from '../../shared/api';
import type { Connectors } from '../connectors/connectors';
import type { LibraryStore } from '../library/library-store';
import { mimeTypeFor } from '../library/library-store';
import type { ToolVetoes } from './service-tools';
import { TOOL_CHANNELS, isToolOn, visibleTools, type ToolChannelName } from './service-tools';
import type { WorkspaceFiles } from './workspace-files';

/**
 * The tools the service lends (`tools.gs`), served to the agent as an MCP server of our own. Each agent
 * and channel gets its own address, so the list the agent sees is the EFFECTIVE list of that channel: a
 * vetoed tool is not listed, and a call to it is refused.
 */
export const LENT_TOOLS_SERVER = 'agentdesk';

export function lentToolsToken(key: Buffer, agentId: string, channel: string): string {
  return createHmac('sha256', key).update(`gs-mcp\n${agentId}\n${channel}`).digest('base64url');
}

export function checkLentToolsToken(key: Buffer, agentId: string, channel: string, given: string): boolean {
  const expected = Buffer.from(lentToolsToken(key, agentId, channel));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The MCP server entry given to the agent in `session/new` for one channel. */
export function lentToolsServer(baseUrl: string, key: Buffer, agentId: string, channel: ToolChannelName) {
  return {
    name: LENT_TOOLS_SERVER,
    type: 'http' as const,
    url: `${baseUrl}${routePath(apiRoutes.lentToolsMcp, { agentId, channel })}`,
    headers: { Authorization: `Bearer ${lentToolsToken(key, agentId, channel)}` },
  };
}

export function isToolChannel(value: string): value is ToolChannelName {
  return (TOOL_CHANNELS as readonly string[]).includes(value);
}

export interface LentToolsContext {
  personId: string;
  vetoes: ToolVetoes;
  channel: ToolChannelName;
  library: LibraryStore;
  connectors: Connectors;
  /** The agent's workspace (null for an agent without a machine). */
  workspace: WorkspaceFiles | null;
  signUrl(fileId: string): string;
}

const INPUT_SCHEMAS: Record<string, object> = {
  account_files: { type: 'object', properties: {}, additionalProperties: false },
  send_file: {
    type: 'object',
    properties: { path: { type: 'string', description: 'Path of the file, relative to the workspace.' } },
    required: ['path'],
    additionalProperties: false,
  },
  connectors: { type: 'object', properties: {}, additionalProperties: false },
};

/** MCP `tools/list`: only the tools on for this channel. */
export function listLentTools(ctx: Pick<LentToolsContext, 'vetoes' | 'channel'>) {
  return visibleTools(ctx.vetoes, ctx.channel).map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: INPUT_SCHEMAS[t.name] ?? { type: 'object' },
  }));
}

export interface ToolResult {
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

const text = (value: unknown, isError = false): ToolResult => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }],
  ...(isError ? { isError: true } : {}),
});

/** MCP `tools/call`: refuses a tool that is off for this channel, else runs it. */
export async function callLentTool(
  ctx: LentToolsContext,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  if (!isToolOn(ctx.vetoes, ctx.channel, name)) {
    return text(
      `Refused: the tool "${name}" is turned off for this agent on the ${ctx.channel} channel.`,
      true,
    );
  }
  switch (name) {
    case 'account_files':
      return text(
        (await ctx.library.list(ctx.personId)).map((f) => ({
          nombre: f.name,
          mimeType: f.mimeType,
          size: f.size,
          url: ctx.signUrl(f.id),
        })),
      );
    case 'connectors':
      return text(
        (await ctx.connectors.list(ctx.personId))
          .filter((c) => c.connected)
          .map((c) => ({ id: c.id, nombre: c.name })),
      );
    case 'send_file': {
      if (!ctx.workspace) return text('This agent has no workspace to send files from.', true);
      const given = typeof args['path'] === 'string' ? args['path'] : '';
      try {
        const rel = ctx.workspace.parse(given);
        const bytes = await ctx.workspace.read(rel);
        const nombre = path.posix.basename(rel.rel);
        const file = await ctx.library.add(ctx.personId, nombre, mimeTypeFor(nombre, undefined), bytes);
        return text({ nombre, size: file.size, url: ctx.signUrl(file.id) });
      } catch (err) {
        return text(`Cannot send "${given}": ${(err as Error).message}`, true);
      }
    }
    default:
      return text(`Unknown tool "${name}".`, true);
  }
}
