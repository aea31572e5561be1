import { z } from 'zod';
import {
  Base64,
  DateTime,
  Engine,
  McpServerName,
  PromptMode,
  RelativePath,
  Storage,
  StringMap,
  ToolToggles,
  TurnState,
} from './common';

/**
 * Resources of the v2 spec ("Resources and their fields"). Read shapes are loose objects:
 * a client must keep working when the server adds a field.
 */

// --- MCP servers ---------------------------------------------------------------------------

/**
 * The spec takes https only. Our service also takes plain http to the agent's own machine (localhost,
 * 127.0.0.1, [::1]) for local development (docs/extensions.md); another server may refuse it with a 400.
 */
export const MCP_LOCAL_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Whether `url` is plain http to the agent's own machine (allowed for local development). */
export const isLocalMcpUrl = (url: string): boolean => {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && MCP_LOCAL_HOSTS.includes(parsed.hostname);
  } catch {
    return false;
  }
};

export const McpRemoteServer = z.looseObject({
  name: McpServerName,
  type: z.enum(['http', 'sse'], { error: 'type must be "http" or "sse"' }).default('http'),
  url: z
    .url({
      protocol: /^https?$/,
      error: (issue) => (issue.input === undefined ? 'url is required' : 'url must be an https URL'),
    })
    .refine((url) => url.startsWith('https:') || isLocalMcpUrl(url), {
      error: 'url must be an https URL (plain http only to localhost or 127.0.0.1)',
    }),
  headers: StringMap.optional(),
});
export type McpRemoteServer = z.infer<typeof McpRemoteServer>;

/** The spec's name pattern is stated for remote servers; we apply it to local ones too (our choice). */
export const McpLocalServer = z.looseObject({
  name: McpServerName,
  command: z
    .string({
      error: (issue) => (issue.input === undefined ? 'command is required' : 'command must be a string'),
    })
    .min(1, { error: 'command must not be empty' }),
  args: z.array(z.string()).optional(),
  env: StringMap.optional(),
});
export type McpLocalServer = z.infer<typeof McpLocalServer>;

/** One of two shapes: remote (`url`) or local command (`command`). */
export const McpServer = z.union([McpRemoteServer, McpLocalServer]);
export type McpServer = z.infer<typeof McpServer>;
export type McpServerInput = z.input<typeof McpServer>;

export function isLocalMcpServer(server: McpServer): server is McpLocalServer {
  return 'command' in server && typeof server.command === 'string';
}

// --- Skills --------------------------------------------------------------------------------

export const Skill = z.looseObject({
  slug: z.string(),
  description: z.string(),
  files: z.array(z.string()),
});
export type Skill = z.infer<typeof Skill>;

/** Community catalog item. */
export const CatalogItem = z.looseObject({
  slug: z.string(),
  description: z.string(),
  /** owner/name form */
  repo: z.string(),
  /** folder pinned to the vendored commit */
  url: z.string(),
  license: z.string(),
  installed: z.boolean(),
});
export type CatalogItem = z.infer<typeof CatalogItem>;

// --- Bundle --------------------------------------------------------------------------------

export const BundleFile = z.object({
  path: RelativePath,
  contentBase64: Base64,
});
export type BundleFile = z.infer<typeof BundleFile>;

export const Bundle = z.object({
  layout: z.literal('dir', { error: 'layout must be "dir"' }).optional(),
  files: z.array(BundleFile),
});
export type Bundle = z.infer<typeof Bundle>;

// --- Msgapp1 numbers -----------------------------------------------------------------------

export const MsgappNumber = z.looseObject({
  id: z.string(),
  label: z.string(),
  mine: z.boolean(),
  takenByOther: z.boolean(),
});
export type MsgappNumber = z.infer<typeof MsgappNumber>;

export const MsgappNumbers = z.looseObject({
  numbers: z.array(MsgappNumber),
  /** Without a workspace there are no numbers to link. */
  hasWorkspace: z.boolean(),
  hasSales: z.boolean(),
  /** Where to pair a new number. */
  salesUrl: z.string().nullable(),
  /** Only on the PUT response. */
  cambiados: z.int().optional(),
});
export type MsgappNumbers = z.infer<typeof MsgappNumbers>;

// --- Agent configuration -------------------------------------------------------------------

export const ModelOption = z.looseObject({ id: z.string(), label: z.string() });
export type ModelOption = z.infer<typeof ModelOption>;

export const WorkspaceFile = z.looseObject({
  path: z.string(),
  size: z.int(),
  /** Our extension: hex SHA-256 of the bytes, so a client can tell a same-size edit. */
  sha256: z.string().optional(),
});
export type WorkspaceFile = z.infer<typeof WorkspaceFile>;

export const ExtensionState = z.looseObject({ name: z.string(), enabled: z.boolean() });
export type ExtensionState = z.infer<typeof ExtensionState>;

/** Read shape of `channels`: booleans, `workchat` always shown. */
export const AgentChannels = z.looseObject({
  workchat: z.boolean().optional(),
  web: z.boolean().optional(),
  msgapp1: z.boolean().optional(),
  msgapp2: z.boolean().optional(),
});
export type AgentChannels = z.infer<typeof AgentChannels>;

/**
 * `gs`: every tool lent by the service with its state; `extensions`: only the saved vetoes;
 * `canales`: the EFFECTIVE state, channel -> tool name -> boolean.
 */
export const AgentTools = z.looseObject({
  gs: ToolToggles.optional(),
  extensions: ToolToggles.optional(),
  canales: z.record(z.string(), ToolToggles).optional(),
});
export type AgentTools = z.infer<typeof AgentTools>;

/** Every field but `id` is optional because `?fields=` filters the response. */
export const AgentConfig = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  storage: Storage.optional(),
  hasMachine: z.boolean().optional(),
  engine: Engine.optional(),
  model: z.string().optional(),
  models: z.array(ModelOption).optional(),
  prompt: z.string().optional(),
  promptMode: PromptMode.optional(),
  channels: AgentChannels.optional(),
  webSearch: z.boolean().optional(),
  mcp: z.array(McpServer).optional(),
  starters: z.array(z.string()).optional(),
  msgapp2Page: z.boolean().optional(),
  tools: AgentTools.optional(),
  /** Only with `?full=1`. */
  extensions: z.array(ExtensionState).optional(),
  /** Only with `?full=1`. */
  files: z.array(WorkspaceFile).optional(),
  /** Only with `?full=1`. */
  skills: z.array(Skill).optional(),
  /** Present on some responses. */
  aplicado: z.array(z.string()).optional(),
  /** On the PATCH response: what applies to that engine. */
  nota: z.string().optional(),
});
export type AgentConfig = z.infer<typeof AgentConfig>;

/** Field names accepted by `?fields=`. */
export const AGENT_CONFIG_FIELDS = Object.keys(AgentConfig.shape) as (keyof AgentConfig)[];

// --- Person's agents -----------------------------------------------------------------------

export const ConexionAcp = z.looseObject({ tipo: z.literal('acp'), host: z.string(), token: z.string() });
export const ConexionPartner = z.looseObject({
  tipo: z.literal('partner'),
  agentId: z.string(),
  token: z.string(),
});
export const Conexion = z.discriminatedUnion('tipo', [ConexionAcp, ConexionPartner]);
export type Conexion = z.infer<typeof Conexion>;

/** Item of the person's agent list. */
export const Agente = z.looseObject({
  id: z.string(),
  nombre: z.string(),
  origen: z.enum(['gs', 'partner']),
  protocolo: z.enum(['acp', 'sse', 'http']),
  conexion: Conexion.nullable(),
  /** Agent is ACP but has no token yet. */
  necesitaToken: z.boolean(),
});
export type Agente = z.infer<typeof Agente>;

// --- Conversations and turns ---------------------------------------------------------------

/** Summary of a turn. Where the spec allows null, fields use `TurnoResumen.nullable()`. */
export const TurnoResumen = z.looseObject({
  turnId: z.string(),
  estado: TurnState,
  at: DateTime,
});
export type TurnoResumen = z.infer<typeof TurnoResumen>;

export const ConversationListItem = z.looseObject({
  id: z.string(),
  titulo: z.string().nullable(),
  actualizada: DateTime.nullable(),
  ultimoTurno: TurnoResumen.nullable(),
});
export type ConversationListItem = z.infer<typeof ConversationListItem>;

/** Scheduled turn. */
export const TurnoProgramado = z.looseObject({
  id: z.string(),
  prompt: z.string(),
  dueAt: DateTime,
  repeatMin: z.number().nullable(),
  until: DateTime.nullable(),
});
export type TurnoProgramado = z.infer<typeof TurnoProgramado>;

/** Sharing state. `slug` is absent while a conversation was never shared (our choice). */
export const Compartida = z.looseObject({
  compartida: z.boolean(),
  slug: z.string().optional(),
});
export type Compartida = z.infer<typeof Compartida>;

// --- Account files -------------------------------------------------------------------------

export const Archivo = z.looseObject({
  id: z.string(),
  nombre: z.string(),
  mimeType: z.string(),
  size: z.int(),
  /** Signed, valid 6 hours. */
  url: z.string(),
});
export type Archivo = z.infer<typeof Archivo>;

// --- Connectors ----------------------------------------------------------------------------

export const Connector = z.looseObject({
  id: z.string(),
  nombre: z.string(),
  conectado: z.boolean(),
  disponible: z.boolean(),
});
export type Connector = z.infer<typeof Connector>;
