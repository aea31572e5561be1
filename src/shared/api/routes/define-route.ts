import { AgenteNoAcp, ErrorBody, NotFound } from '../errors';
import { OkResult } from '../responses';
import type { ResponseSpec, RouteSpec } from '../route-types';
import { type GuardOptions, withGuardAnswers } from './guard-responses';

// The path prefixes every section builds on; a path of the API is written only under `routes/`.
export const AGENT = '/api/v2/agents/{id}';
export const CONVERSATIONS = '/api/v2/me/agents/{agentId}/conversations';
export const CONVERSATION = `${CONVERSATIONS}/{sessionId}`;

/** A byte size for descriptions: `10 MiB`, `16 KiB`. */
export const MB = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;

// Body caps of our choosing (the spec names only the file, skill and audio ones).
export const JSON_BODY_MAX = 1024 * 1024;
/** A message carries up to 8 base64 attachments. */
export const MESSAGE_BODY_MAX = 64 * 1024 * 1024;
/** The whole bundle; each file inside is capped at 10 MB as the spec says. */
export const BUNDLE_BODY_MAX = 100 * 1024 * 1024;
export const DEVICE_BODY_MAX = 16 * 1024;
/** OAuth and page forms are small. */
export const FORM_BODY_MAX = 64 * 1024;

// --- Shared responses ----------------------------------------------------------------------

export const unauthorized: ResponseSpec = {
  description: 'No token, or an expired or unusable one: refresh and retry once.',
  body: 'text',
};
export const forbidden: ResponseSpec = { description: 'A scope is missing; do not retry.', body: 'text' };
export const notFound: ResponseSpec = {
  description:
    'The agent is not the caller’s, or the resource does not exist (never 403). Always the JSON body (our choice).',
  body: NotFound,
};
export const noMachine: ResponseSpec = {
  description: 'The agent’s engine has no machine of its own; `motor` is the engine.',
  body: AgenteNoAcp,
};
export const invalid = (what: string): ResponseSpec => ({ description: what, body: ErrorBody });
export const ok = (description: string, body: ResponseSpec['body']): ResponseSpec => ({ description, body });
export const okOurs = (what: string): ResponseSpec => ({
  description: `${what}. The spec does not show the body; ours is \`{ok: true}\` (our choice).`,
  body: OkResult,
});

/**
 * One entry of the table, its literal type kept (operation id, path, schemas) so that the service's
 * handlers and the client are typed from it. Adds the 401/403 every bearer route can answer, the 413
 * of a capped body, and the answers of the service's guards (guard-responses.ts).
 */
export function defineRoute<const S extends RouteSpec>(spec: S, guards: GuardOptions = {}): S {
  const cap = spec.request.body?.maxBytes;
  const responses = {
    ...(cap !== undefined && { 413: invalid(`The body is over ${MB(cap)} (\`body_demasiado_grande\`).`) }),
    ...spec.responses,
    ...(spec.credential !== 'none' && { 401: unauthorized, 403: forbidden }),
  };
  return { ...spec, responses: withGuardAnswers(spec, responses, guards) };
}
