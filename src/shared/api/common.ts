import { z } from 'zod';

/** Building blocks reused by resources, requests and responses. */

/** ISO 8601 date-time; `Z` or an explicit offset. */
export const DateTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' });

export const Scope = z.enum(['profile', 'agents:read', 'agents:write', 'files']);
export type Scope = z.infer<typeof Scope>;
export const ALL_SCOPES: readonly Scope[] = Scope.options;

export const Engine = z.enum(['house-lite', 'engine-b', 'engine-c', 'engine-d', 'engine-e']);
export type Engine = z.infer<typeof Engine>;

export const Storage = z.enum(['box', 'bundle']);
export type Storage = z.infer<typeof Storage>;

export const PromptMode = z.enum(['append', 'replace']);
export type PromptMode = z.infer<typeof PromptMode>;

export const TurnState = z.enum(['queued', 'running', 'done', 'error', 'stopped']);
export type TurnState = z.infer<typeof TurnState>;
/** The states of a turn whose message was just accepted (202). */
export const AcceptedTurnState = TurnState.extract(['queued', 'running']);
export type AcceptedTurnState = z.infer<typeof AcceptedTurnState>;
/** The states a turn never leaves: it has ended. */
export const EndedTurnState = TurnState.extract(['done', 'error', 'stopped']);
export type EndedTurnState = z.infer<typeof EndedTurnState>;
const ENDED: readonly TurnState[] = EndedTurnState.options;
/** Whether a turn has ended: the one place that decides it, for the renderer and the service alike. */
export function isTerminal(state: TurnState): state is EndedTurnState {
  return ENDED.includes(state);
}

/** Channels of the agent configuration (`channels` object). */
export const ChannelName = z.enum(['workchat', 'web', 'msgapp1', 'msgapp2']);
export type ChannelName = z.infer<typeof ChannelName>;

/** Channels of `tools.canales` on the PATCH body. */
export const ToolChannel = z.enum(['chat', 'workchat', 'msgapp1', 'msgapp2', 'programado', 'prueba']);
export type ToolChannel = z.infer<typeof ToolChannel>;

/** Map of tool name to on/off. */
export const ToolToggles = z.record(z.string(), z.boolean());
export type ToolToggles = z.infer<typeof ToolToggles>;

export const StringMap = z.record(z.string(), z.string());
export type StringMap = z.infer<typeof StringMap>;

/** Standard base64 (RFC 4648 §4), padding required. */
export const Base64 = z.base64({ error: 'must be base64' });

/**
 * A path relative to an agent workspace (or skill folder): no leading `/`, no `\`, no NUL,
 * and no `..` segment, so it can never escape the folder it is resolved against.
 */
export const RelativePath = z.string().refine(isSafeRelativePath, {
  error: 'must be a relative path: no leading "/", no "\\", no NUL and no ".." segments',
});

export function isSafeRelativePath(value: string): boolean {
  if (value.startsWith('/') || value.includes('\\') || value.includes('\0')) return false;
  return !value.split('/').some((segment) => segment === '..');
}

export const SkillSlug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, {
  error:
    'A skill name uses only lowercase letters, digits and -, starts with a letter or a digit, and has at most 64 characters.',
});

export const MCP_NAME_MAX = 41;
export const McpServerName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,40}$/, {
  error:
    'A server name uses only lowercase letters, digits, - and _, starts with a letter or a digit, and has at most 41 characters.',
});
