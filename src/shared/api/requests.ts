import { z } from 'zod';
import {
  Base64,
  DateTime,
  Engine,
  PromptMode,
  RelativePath,
  SkillSlug,
  ToolChannel,
  ToolToggles,
} from './common';
import { LIMITS } from './limits';
import { Bundle, McpServer } from './resources';

/**
 * Request parameters and bodies of the v2 spec, with its limits. Messages name the field,
 * and every issue carries the field's path.
 */

// --- Path and query parameters -------------------------------------------------------------

export const AgentParams = z.object({ id: z.string().min(1) });
export type AgentParams = z.infer<typeof AgentParams>;

export const AgentConfigQuery = z.object({
  /** Only `1`: wakes the machine and adds `files`, `skills`, `extensions`. */
  full: z.literal('1', { error: 'full must be "1"' }).optional(),
  /** Comma-separated field names; `id` is always included. */
  fields: z.string().optional(),
});
export type AgentConfigQuery = z.infer<typeof AgentConfigQuery>;

/** `{path}` may be empty (the workspace root) when listing. */
export const WorkspacePathParams = z.object({
  id: z.string().min(1),
  path: RelativePath,
});
export type WorkspacePathParams = z.infer<typeof WorkspacePathParams>;

/** Writing or deleting needs a file path. */
export const WorkspaceFileParams = z.object({
  id: z.string().min(1),
  path: RelativePath.min(1, { error: 'path is required' }),
});
export type WorkspaceFileParams = z.infer<typeof WorkspaceFileParams>;

export const SkillParams = z.object({ id: z.string().min(1), slug: SkillSlug });
export type SkillParams = z.infer<typeof SkillParams>;

export const PersonAgentParams = z.object({ agentId: z.string().min(1) });
export type PersonAgentParams = z.infer<typeof PersonAgentParams>;

export const ConversationParams = z.object({
  agentId: z.string().min(1),
  sessionId: z.string().min(1),
});
export type ConversationParams = z.infer<typeof ConversationParams>;

export const ScheduleItemParams = ConversationParams.extend({ id: z.string().min(1) });
export type ScheduleItemParams = z.infer<typeof ScheduleItemParams>;

export const ConversationQuery = z.object({
  /** Only the tail is returned; default tail size 50 (our choice). */
  limit: z.coerce
    .number({ error: 'limit must be an integer' })
    .int()
    .min(1)
    .max(LIMITS.conversationTailMax, { error: `limit must be at most ${LIMITS.conversationTailMax}` })
    .optional(),
});
export type ConversationQuery = z.infer<typeof ConversationQuery>;

export const IdParams = z.object({ id: z.string().min(1) });
export type IdParams = z.infer<typeof IdParams>;

export const FileUploadQuery = z.object({
  nombre: z.string({ error: 'nombre is required' }).min(1, { error: 'nombre is required' }),
});
export type FileUploadQuery = z.infer<typeof FileUploadQuery>;

export const SlugParams = z.object({ slug: z.string().min(1) });
export type SlugParams = z.infer<typeof SlugParams>;

// --- Agent configuration bodies ------------------------------------------------------------

/** Control characters (a terminal's escape, a line break, NUL) and direction overrides that disguise a name. */
const HIDDEN_CHARACTERS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

/**
 * An agent's name, as PATCH `name` and our POST of an agent take it: one line of visible text, 1 to 64
 * characters once trimmed (the spec says max 64; the rest is our choice, the same for both routes).
 */
export const AgentName = z
  .string()
  .trim()
  .min(1, { error: 'name must not be empty' })
  .max(LIMITS.agentNameMax, { error: `name must be at most ${LIMITS.agentNameMax} characters` })
  .refine((name) => !HIDDEN_CHARACTERS.test(name), {
    error:
      'An agent’s name is one line of visible text: no line breaks, control characters or direction marks.',
  });
const Prompt = z.string().max(LIMITS.promptMax, {
  error: `prompt must be at most ${LIMITS.promptMax} characters`,
});
const Starters = z
  .array(
    z
      .string()
      .max(LIMITS.starterMax, { error: `each starter must be at most ${LIMITS.starterMax} characters` }),
  )
  .max(LIMITS.startersMax, { error: `starters must have at most ${LIMITS.startersMax} items` });

export const PatchAgentChannels = z.object({
  workchat: z.boolean().optional(),
  web: z.boolean().optional(),
  msgapp1: z.boolean().optional(),
  msgapp2: z.boolean().optional(),
});
export type PatchAgentChannels = z.infer<typeof PatchAgentChannels>;

/** `true` turns a tool back on (merged with the saved state); `extensions` changes restart the machine. */
export const PatchAgentTools = z.object({
  gs: ToolToggles.optional(),
  extensions: ToolToggles.optional(),
  canales: z.partialRecord(ToolChannel, ToolToggles).optional(),
});
export type PatchAgentTools = z.infer<typeof PatchAgentTools>;

/** PATCH /api/v2/agents/{id}; every field optional. */
export const PatchAgentBody = z.object({
  name: AgentName.optional(),
  engine: Engine.optional(),
  model: z.string().min(1, { error: 'model must not be empty' }).optional(),
  prompt: Prompt.optional(),
  promptMode: PromptMode.optional(),
  webSearch: z.boolean().optional(),
  channels: PatchAgentChannels.optional(),
  starters: Starters.optional(),
  tools: PatchAgentTools.optional(),
});
export type PatchAgentBody = z.infer<typeof PatchAgentBody>;

export const SkillAsset = z.object({
  /** Relative to the skill folder. */
  name: RelativePath.min(1, { error: 'name is required' }),
  contentBase64: Base64,
});
export type SkillAsset = z.infer<typeof SkillAsset>;

/** PUT skills/{slug}: `markdown` (SKILL.md) is required unless installing `fromCatalog` (our choice). */
export const SkillPutBody = z
  .object({
    markdown: z.string().optional(),
    fromCatalog: z.boolean().optional(),
    assets: z.array(SkillAsset).optional(),
  })
  .refine((body) => body.fromCatalog === true || typeof body.markdown === 'string', {
    error: 'markdown is required unless fromCatalog is true',
    path: ['markdown'],
  });
export type SkillPutBody = z.infer<typeof SkillPutBody>;

/** PUT mcp: replaces the ENTIRE list. */
export const McpPutBody = z.object({
  servers: z
    .array(McpServer, { error: 'servers must be an array of MCP servers' })
    .max(LIMITS.mcpServersMax, { error: `servers must have at most ${LIMITS.mcpServersMax} items` }),
});
export type McpPutBody = z.infer<typeof McpPutBody>;
export type McpPutBodyInput = z.input<typeof McpPutBody>;

/**
 * POST try. `text` is always required, also with `reset: true` (our choice).
 * With `as: msgapp1`, `session` is a phone number of 10 to 15 digits.
 */
export const TryBody = z
  .object({
    text: z.string({ error: 'text is required' }),
    session: z
      .string()
      .regex(/^[a-zA-Z0-9_-]{1,32}$/, {
        error: `A session name has 1 to ${LIMITS.trySessionMax} letters, digits, - or _.`,
      })
      .default('default'),
    reset: z.boolean().optional(),
    as: z.literal('msgapp1', { error: 'as must be "msgapp1"' }).optional(),
  })
  .refine((body) => body.as !== 'msgapp1' || /^[0-9]{10,15}$/.test(body.session), {
    error: 'As a business chat customer, the session is a phone number of 10 to 15 digits.',
    path: ['session'],
  });
export type TryBody = z.infer<typeof TryBody>;
export type TryBodyInput = z.input<typeof TryBody>;

/** POST bundle takes a Bundle. */
export const BundleBody = Bundle;
export type BundleBody = Bundle;

/** PUT msgapp1: ids from `numbers[].id`. */
export const MsgappPutBody = z.object({
  numbers: z.array(z.string(), { error: 'numbers must be an array of number ids' }),
});
export type MsgappPutBody = z.infer<typeof MsgappPutBody>;

// --- Conversations and turns ---------------------------------------------------------------

export const PatchConversationBody = z.object({
  title: z.string({ error: 'title is required' }),
});
export type PatchConversationBody = z.infer<typeof PatchConversationBody>;

/** A file sent with a message, of any type (the wire's list is called `images`). */
export const Attachment = z.object({
  name: z.string().optional(),
  mimeType: z.string({ error: 'mimeType is required' }).min(1, { error: 'mimeType is required' }),
  data: Base64,
  uri: z.string().optional(),
});
export type Attachment = z.infer<typeof Attachment>;

/** How permissions are asked (the wire's `permisos`): `preguntar` shows each question to the person. */
export const PermissionMode = z.enum(['auto', 'preguntar'], {
  error: 'permisos must be "auto" or "preguntar"',
});
export type PermissionMode = z.infer<typeof PermissionMode>;

export const PostMessageBody = z.object({
  content: z.string({ error: 'content is required' }),
  /** Idempotency key chosen by the caller. */
  turnId: z.uuid({ error: 'turnId must be a uuid' }).optional(),
  /** The thread was empty; it is titled when the turn closes. */
  primerTurno: z.boolean().optional(),
  permisos: PermissionMode.default('auto'),
  images: z
    .array(Attachment)
    .max(LIMITS.imagesPerMessageMax, {
      error: `images must have at most ${LIMITS.imagesPerMessageMax} items`,
    })
    .optional(),
});
export type PostMessageBody = z.infer<typeof PostMessageBody>;
export type PostMessageBodyInput = z.input<typeof PostMessageBody>;

export const PermissionBody = z.object({
  id: z.string({ error: 'id is required' }).min(1, { error: 'id is required' }),
  optionId: z.string({ error: 'optionId is required' }).min(1, { error: 'optionId is required' }),
});
export type PermissionBody = z.infer<typeof PermissionBody>;

export const ModelBody = z.object({
  model: z.string({ error: 'model is required' }).min(1, { error: 'model is required' }),
});
export type ModelBody = z.infer<typeof ModelBody>;

/** POST schedule: exactly one of `inMinutes` or `dueAt` (our choice: both is an error). */
export const ScheduleBody = z
  .object({
    prompt: z.string({ error: 'prompt is required' }).min(1, { error: 'prompt is required' }),
    inMinutes: z
      .number()
      .positive({ error: 'inMinutes must be positive' })
      .max(LIMITS.scheduleAheadMinutesMax, { error: 'inMinutes must be at most about five years' })
      .optional(),
    dueAt: DateTime.optional(),
    /** Makes it periodic. */
    repeatMin: z
      .number()
      .min(LIMITS.scheduleRepeatMinutesMin, { error: 'repeatMin must be at least 1 minute' })
      .max(LIMITS.scheduleRepeatMinutesMax, { error: 'repeatMin must be at most a year' })
      .nullable()
      .optional(),
    /** Bounds a periodic turn. */
    until: DateTime.nullable().optional(),
  })
  .refine((body) => (body.inMinutes === undefined) !== (body.dueAt === undefined), {
    error: 'give exactly one of inMinutes or dueAt',
    path: ['inMinutes'],
  });
export type ScheduleBody = z.infer<typeof ScheduleBody>;

// --- Devices -------------------------------------------------------------------------------

export const DevicesBody = z.object({
  token: z.string({ error: 'token is required' }).min(1, { error: 'token is required' }),
  plataforma: z.enum(['ios', 'android'], { error: 'plataforma must be "ios" or "android"' }),
  entorno: z
    .enum(['production', 'sandbox'], { error: 'entorno must be "production" or "sandbox"' })
    .optional(),
});
export type DevicesBody = z.infer<typeof DevicesBody>;

/** DELETE devices: the device is identified by its push `token`, in a JSON body or the `token` query (our choice). */
export const DevicesDeleteBody = z.object({
  token: z.string({ error: 'token is required' }).min(1, { error: 'token is required' }),
});
export type DevicesDeleteBody = z.infer<typeof DevicesDeleteBody>;
