import { z } from 'zod';

/** Error bodies of the v2 spec ("Errors"). */

/** Error: `error` is a code (e.g. `body_invalido`), `detalle` a readable sentence. */
export const ErrorBody = z.looseObject({
  error: z.string(),
  detalle: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const OAuthErrorBody = z.looseObject({
  error: z.string(),
  error_description: z.string().optional(),
});
export type OAuthErrorBody = z.infer<typeof OAuthErrorBody>;

export const OAuthErrorCode = z.enum([
  'invalid_request',
  'invalid_grant',
  'invalid_client',
  'unsupported_grant_type',
  'invalid_scope',
  'access_denied',
  'unsupported_response_type',
]);
export type OAuthErrorCode = z.infer<typeof OAuthErrorCode>;

/** 402: allowance exhausted, trial expired, or model requiring the caller's own key. */
export const QuotaError = z.looseObject({
  error: z.enum(['quota_exhausted', 'trial_expired', 'own_key_required']),
  /** For display. */
  message: z.string(),
});
export type QuotaError = z.infer<typeof QuotaError>;

/** 409 where the agent's engine has no machine of its own; `motor` is the engine. */
export const AgenteNoAcp = z.looseObject({
  error: z.literal('agente_no_acp'),
  motor: z.string(),
});
export type AgenteNoAcp = z.infer<typeof AgenteNoAcp>;

/** 404 on POST permission when the request is resolved or expired. */
export const PermissionNotOpen = z.looseObject({
  resuelto: z.literal(false),
  motivo: z.literal('no_abierto'),
});
export type PermissionNotOpen = z.infer<typeof PermissionNotOpen>;

/** 503 during a deploy/restart, sent with `Retry-After: 10`. */
export const Reiniciando = z.looseObject({ error: z.literal('reiniciando') });
export type Reiniciando = z.infer<typeof Reiniciando>;

export const MethodNotAllowed = z.looseObject({ error: z.literal('method_not_allowed') });
export type MethodNotAllowed = z.infer<typeof MethodNotAllowed>;

/** Our service always answers 404 with this JSON body, never plain text (our choice). */
export const NotFound = z.looseObject({ error: z.literal('not_found'), detalle: z.string().optional() });
export type NotFound = z.infer<typeof NotFound>;

/** 404 of POST permission: not open, or no such conversation. */
export const PermissionNotFound = z.union([PermissionNotOpen, NotFound]);
export type PermissionNotFound = z.infer<typeof PermissionNotFound>;

/** 413: the spec's example body is `{error: "audio demasiado grande"}`. */
export const TooLarge = ErrorBody;
export type TooLarge = ErrorBody;

/** The `error` codes the spec names, so nobody retypes them. */
export const ERROR_CODES = {
  bodyInvalido: 'body_invalido',
  tokenInvalido: 'token_invalido',
  turnoEnCurso: 'turno_en_curso',
  agenteNoAcp: 'agente_no_acp',
  reiniciando: 'reiniciando',
  notFound: 'not_found',
  methodNotAllowed: 'method_not_allowed',
  noAbierto: 'no_abierto',
  audioDemasiadoGrande: 'audio demasiado grande',
  /** Our code for workspace files and skill payloads over the cap (our choice). */
  archivoDemasiadoGrande: 'archivo demasiado grande',
  /** Our codes for other 400s (our choice). */
  nothingToChange: 'nada_que_cambiar',
  invalidModel: 'modelo_invalido',
  invalidPath: 'ruta_invalida',
  invalidSkill: 'skill_invalida',
  invalidMcpServer: 'mcp_invalido',
  /** Our code for a 409 account-deletion blocker (our choice). */
  bloqueado: 'bloqueado',
  /** Our code for the 502 of PATCH agent (our choice). */
  maquinaNoAplico: 'maquina_no_aplico',
} as const;
