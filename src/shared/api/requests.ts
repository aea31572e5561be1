import { z } from 'zod';
import {
  Base64,
  DateTime,
  Engine,
  PromptMode,
  RelativePath,
  Scope,
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

const AgentName = z.string().max(LIMITS.agentNameMax, {
  error: `name must be at most ${LIMITS.agentNameMax} characters`,
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

/** An attachment of any type. */
export const MessageImage = z.object({
  name: z.string().optional(),
  mimeType: z.string({ error: 'mimeType is required' }).min(1, { error: 'mimeType is required' }),
  data: Base64,
  uri: z.string().optional(),
});
export type MessageImage = z.infer<typeof MessageImage>;

export const Permisos = z.enum(['auto', 'preguntar'], { error: 'permisos must be "auto" or "preguntar"' });
export type Permisos = z.infer<typeof Permisos>;

export const PostMessageBody = z.object({
  content: z.string({ error: 'content is required' }),
  /** Idempotency key chosen by the caller. */
  turnId: z.uuid({ error: 'turnId must be a uuid' }).optional(),
  /** The thread was empty; it is titled when the turn closes. */
  primerTurno: z.boolean().optional(),
  permisos: Permisos.default('auto'),
  images: z
    .array(MessageImage)
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

// --- OAuth ---------------------------------------------------------------------------------

export const AuthorizeQuery = z.object({
  response_type: z.literal('code', { error: 'response_type must be "code"' }),
  client_id: z.string().min(1, { error: 'client_id is required' }),
  redirect_uri: z.string().min(1, { error: 'redirect_uri is required' }),
  /** Space-separated. */
  scope: z.string().optional(),
  state: z.string().min(1, { error: 'state is required' }),
  code_challenge: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, { error: 'code_challenge must be BASE64URL(SHA256(code_verifier))' }),
  code_challenge_method: z.literal('S256', { error: 'code_challenge_method must be "S256"' }),
});
export type AuthorizeQuery = z.infer<typeof AuthorizeQuery>;

const ClientCredentials = {
  client_id: z.string().min(1, { error: 'client_id is required' }),
  /** Confidential clients; may also come as `Authorization: Basic`. */
  client_secret: z.string().optional(),
};

export const AuthorizationCodeGrant = z.object({
  grant_type: z.literal('authorization_code'),
  ...ClientCredentials,
  code: z.string().min(1, { error: 'code is required' }),
  redirect_uri: z.string().min(1, { error: 'redirect_uri is required' }),
  code_verifier: z
    .string()
    .regex(/^[A-Za-z0-9._~-]{43,128}$/, { error: 'code_verifier must be 43 to 128 unreserved characters' }),
});
export type AuthorizationCodeGrant = z.infer<typeof AuthorizationCodeGrant>;

export const RefreshTokenGrant = z.object({
  grant_type: z.literal('refresh_token'),
  ...ClientCredentials,
  refresh_token: z.string().min(1, { error: 'refresh_token is required' }),
});
export type RefreshTokenGrant = z.infer<typeof RefreshTokenGrant>;

/** POST /oauth2/token (form-urlencoded). A bad `grant_type` maps to 400 `unsupported_grant_type`. */
export const TokenRequest = z.discriminatedUnion('grant_type', [AuthorizationCodeGrant, RefreshTokenGrant], {
  error: 'grant_type must be "authorization_code" or "refresh_token"',
});
export type TokenRequest = z.infer<typeof TokenRequest>;

export const RevokeRequest = z.object({
  token: z.string().min(1, { error: 'token is required' }),
  client_id: z.string().min(1, { error: 'client_id is required' }),
  client_secret: z.string().optional(),
  token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
});
export type RevokeRequest = z.infer<typeof RevokeRequest>;

/** Parses the space-separated `scope` string, keeping only known scopes (unknown ones are dropped). */
export function parseScopes(scope: string | undefined): Scope[] {
  if (!scope) return [];
  const known = new Set<string>(Scope.options);
  return [...new Set(scope.split(' ').filter((s) => known.has(s)))] as Scope[];
}
