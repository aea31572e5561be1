import { z } from 'zod';
import { AcceptedTurnState } from './common';
import { ChatMessage } from './message';
import {
  Agente,
  AgentConfig,
  Archivo,
  Bundle,
  CatalogItem,
  Connector,
  ConversationListItem,
  McpServer,
  Skill,
  TurnoProgramado,
  TurnoResumen,
  WorkspaceFile,
} from './resources';

/** Response bodies of the v2 spec, per route and status. Loose: servers may add fields. */

// --- Agent configuration -------------------------------------------------------------------

/** 200 of GET and PATCH /api/v2/agents/{id} (PATCH adds `nota`). */
export const AgentConfigResponse = AgentConfig;

/** 200 of GET files/{path}: a directory listing. */
export const FilesListing = z.looseObject({
  dir: z.string(),
  files: z.array(WorkspaceFile),
});
export type FilesListing = z.infer<typeof FilesListing>;

/** 200 of PUT files/{path}. `en` is where it was written (the absolute workspace path). */
export const FilePutResult = z.looseObject({
  path: z.string(),
  bytes: z.int(),
  en: z.string(),
});
export type FilePutResult = z.infer<typeof FilePutResult>;

/**
 * 200 of a route whose body the spec does not show (DELETE workspace file, DELETE skill,
 * DELETE connector, POST devices): `{ok: true}` (our choice).
 */
export const OkResult = z.looseObject({ ok: z.literal(true) });
export type OkResult = z.infer<typeof OkResult>;

/** GET /catalogo/skills/{slug} (our extension): the vendored files of one catalog skill, the item's `url`. */
export const CatalogSkillFolder = z.looseObject({
  slug: z.string(),
  repo: z.string(),
  /** Hash of the vendored catalog the files belong to. */
  pin: z.string(),
  license: z.string(),
  /** File name (relative to the skill folder) to its text. */
  files: z.record(z.string(), z.string()),
});
export type CatalogSkillFolder = z.infer<typeof CatalogSkillFolder>;

/** POST /gs-mcp/{agentId}/{channel} (our extension): a JSON-RPC 2.0 answer of MCP, its result or error. */
export const McpJsonRpcAnswer = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]),
});

export const SkillsResponse = z.looseObject({
  skills: z.array(Skill),
  community: z.array(CatalogItem),
});
export type SkillsResponse = z.infer<typeof SkillsResponse>;

export const SkillPutResult = z.looseObject({
  slug: z.string(),
  files: z.array(z.string()),
  bytes: z.int(),
  nota: z.string(),
});
export type SkillPutResult = z.infer<typeof SkillPutResult>;

export const McpResponse = z.looseObject({ servers: z.array(McpServer) });
export type McpResponse = z.infer<typeof McpResponse>;

export const McpPutResult = z.looseObject({
  servers: z.array(McpServer),
  reiniciado: z.boolean(),
});
export type McpPutResult = z.infer<typeof McpPutResult>;

export const RestartResult = z.looseObject({
  reiniciado: z.boolean(),
  sandboxId: z.string(),
});
export type RestartResult = z.infer<typeof RestartResult>;

/** 200 of POST try, and also the body of its 502 (`error` says why). */
export const TryResult = z.looseObject({
  text: z.string(),
  error: z.string().nullable(),
  session: z.string(),
});
export type TryResult = z.infer<typeof TryResult>;

/** 200 of GET bundle: `instructions.md`, `skills/<slug>/...`, `knowledge/...`, `mcp.json`. */
export const BundleResponse = Bundle;

export const BundlePostResult = z.looseObject({
  aplicado: z.array(z.string()),
  ignorado: z.array(z.string()),
  nota: z.string(),
});
export type BundlePostResult = z.infer<typeof BundlePostResult>;

// --- Account and agents --------------------------------------------------------------------

export const DeletedAccount = z.looseObject({ borrada: z.literal(true) });
export type DeletedAccount = z.infer<typeof DeletedAccount>;

/** `email` only with the `profile` scope. */
export const Usuario = z.looseObject({ id: z.string(), email: z.string().optional() });
export type Usuario = z.infer<typeof Usuario>;

export const MeAgentsResponse = z.looseObject({
  agentes: z.array(Agente),
  usuario: Usuario,
});
export type MeAgentsResponse = z.infer<typeof MeAgentsResponse>;

// --- Conversations -------------------------------------------------------------------------

export const ConversationsResponse = z.looseObject({
  conversaciones: z.array(ConversationListItem),
});
export type ConversationsResponse = z.infer<typeof ConversationsResponse>;

export const ConversationCreated = z.looseObject({ id: z.string() });
export type ConversationCreated = z.infer<typeof ConversationCreated>;

/** 200 of PATCH conversation; the spec does not show the body (our choice). */
export const ConversationRenamed = z.looseObject({ id: z.string(), titulo: z.string() });
export type ConversationRenamed = z.infer<typeof ConversationRenamed>;

/** 200 of DELETE conversation (archive); the spec does not show the body (our choice). */
export const ConversationArchived = z.looseObject({ id: z.string(), archivada: z.literal(true) });
export type ConversationArchived = z.infer<typeof ConversationArchived>;

/** Default tail size of GET conversation when `limit` is absent (our choice). */
export const DEFAULT_CONVERSATION_TAIL = 50;

export const ConversationResponse = z.looseObject({
  messages: z.array(ChatMessage),
  /** How many earlier messages were left out. */
  saltados: z.int(),
  ultimoTurno: TurnoResumen.nullable(),
});
export type ConversationResponse = z.infer<typeof ConversationResponse>;

// --- Turns ---------------------------------------------------------------------------------

/** 202 of POST messages. */
export const PostMessageAccepted = z.looseObject({
  turnId: z.string(),
  key: z.string(),
  estado: AcceptedTurnState,
  /** Turns of the agent waiting for a machine. */
  enCola: z.int(),
  reemplazoAnterior: z.boolean(),
  repetido: z.boolean(),
  inyectado: z.boolean(),
});
export type PostMessageAccepted = z.infer<typeof PostMessageAccepted>;

export const CancelResult = z.looseObject({ detenido: z.boolean() });
export type CancelResult = z.infer<typeof CancelResult>;

export const PermissionResult = z.looseObject({ resuelto: z.boolean() });
export type PermissionResult = z.infer<typeof PermissionResult>;

export const ScheduleListResponse = z.looseObject({ programados: z.array(TurnoProgramado) });
export type ScheduleListResponse = z.infer<typeof ScheduleListResponse>;

export const ScheduleCreated = z.looseObject({ programado: TurnoProgramado });
export type ScheduleCreated = z.infer<typeof ScheduleCreated>;

/** 200 of POST model; the spec does not show the body (our choice). */
export const ModelSet = z.looseObject({ model: z.string(), aplica: z.literal('siguiente_turno') });
export type ModelSet = z.infer<typeof ModelSet>;

/** 200 of DELETE schedule item; the spec does not show the body (our choice). */
export const ScheduleCancelled = z.looseObject({ id: z.string(), cancelado: z.literal(true) });
export type ScheduleCancelled = z.infer<typeof ScheduleCancelled>;

// --- Files and audio -----------------------------------------------------------------------

export const FilesResponse = z.looseObject({ archivos: z.array(Archivo) });
export type FilesResponse = z.infer<typeof FilesResponse>;

/** A new 6 h signed URL. */
export const FileUrlResponse = z.looseObject({ url: z.string() });
export type FileUrlResponse = z.infer<typeof FileUrlResponse>;

export const FileDeletedResult = z.looseObject({ deleted: z.boolean() });
export type FileDeletedResult = z.infer<typeof FileDeletedResult>;

export const SttResult = z.looseObject({ text: z.string() });
export type SttResult = z.infer<typeof SttResult>;

// --- Connectors ----------------------------------------------------------------------------

export const ConnectorsResponse = z.looseObject({ connectors: z.array(Connector) });
export type ConnectorsResponse = z.infer<typeof ConnectorsResponse>;

/** URL to open in a browser. */
export const ConnectorStartResult = z.looseObject({ url: z.string() });
export type ConnectorStartResult = z.infer<typeof ConnectorStartResult>;

// --- OAuth ---------------------------------------------------------------------------------

export const TokenResponse = z.looseObject({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('Bearer'),
  /** 3600 */
  expires_in: z.int(),
  /** Space-separated granted scopes. */
  scope: z.string(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

/** 200 of POST /oauth2/revoke, always, even for an unknown token: `{}` (our choice). */
export const RevokeResult = z.looseObject({});
export type RevokeResult = z.infer<typeof RevokeResult>;

/** RFC 8414 metadata at `/.well-known/oauth-authorization-server` (our extension). */
export const OAuthServerMetadata = z.looseObject({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  revocation_endpoint: z.string().optional(),
  response_types_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()).optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  scopes_supported: z.array(z.string()).optional(),
});
export type OAuthServerMetadata = z.infer<typeof OAuthServerMetadata>;

/** GET /oauth2/proveedores: the body is not shown by the spec; this is ours (our choice). */
export const Proveedor = z.looseObject({
  id: z.string(),
  nombre: z.string(),
  /** `password` for the built-in e-mail sign-in; `oidc` for an external identity provider. */
  tipo: z.enum(['password', 'oidc']),
});
export type Proveedor = z.infer<typeof Proveedor>;

export const ProveedoresResponse = z.looseObject({ proveedores: z.array(Proveedor) });
export type ProveedoresResponse = z.infer<typeof ProveedoresResponse>;
