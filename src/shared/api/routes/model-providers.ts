import { z } from 'zod';
import { defineRoute, invalid, JSON_BODY_MAX, notFound, ok } from './define-route';

/**
 * Our extension (docs/extensions.md): the person's model providers, which the service's model agent
 * (engine `engine-e`) thinks with, and the agent programs this computer offers as engines (`engine-c`,
 * `engine-d`). A client detects it by `listModelProviders` among the `x-agentdesk-extension`
 * operations of `/openapi.yaml`; without it, Settings → Models and Agent programs are not shown.
 *
 * Keys never travel back: an answer shows only `clave` as "sk-…abcd".
 */

/** The kinds of provider a person can add. `openai-compatible` is any other server of that protocol. */
export const ProviderKind = z.enum([
  'anthropic',
  'openai',
  'google',
  'openrouter',
  'ollama',
  'openai-compatible',
]);
export type ProviderKind = z.infer<typeof ProviderKind>;

/** Where a provider comes from: the service's environment at start, a running Ollama it found, or the person's Settings. */
export const ProviderOrigin = z.enum(['entorno', 'ollama', 'ajustes']);
export type ProviderOrigin = z.infer<typeof ProviderOrigin>;

/** One model as the provider itself lists it; `id` is the id the agent's `models` carries. */
export const ProviderModel = z.looseObject({ id: z.string(), label: z.string() });
export type ProviderModel = z.infer<typeof ProviderModel>;

export const ModelProvider = z.looseObject({
  id: z.string(),
  tipo: ProviderKind,
  /** What a person calls it: "Anthropic", "OpenAI", "Ollama", or the name given in Settings. */
  nombre: z.string(),
  origen: ProviderOrigin,
  /** The base URL requests go to; null for the provider's own default address. */
  urlBase: z.string().nullable(),
  /** The key, masked ("sk-…abcd"); null where the kind takes none (Ollama). Never the key itself. */
  clave: z.string().nullable(),
  modelos: z.array(ProviderModel),
  /** Why the models could not be listed just now, in words; null when they were. */
  error: z.string().nullable(),
});
export type ModelProvider = z.infer<typeof ModelProvider>;
export const ModelProviders = z.looseObject({ proveedores: z.array(ModelProvider) });
export type ModelProviders = z.infer<typeof ModelProviders>;

export const AddModelProviderBody = z.strictObject({
  tipo: ProviderKind,
  /** Required for every kind but `ollama`; tried (by listing the models) before it is kept. */
  clave: z.string().trim().min(1).max(4096).optional(),
  /** Required for `openai-compatible`; optional elsewhere (a proxy, a self-hosted gateway). http(s) only. */
  urlBase: z.string().trim().url().max(2048).optional(),
  nombre: z.string().trim().min(1).max(64).optional(),
});
export type AddModelProviderBody = z.infer<typeof AddModelProviderBody>;

export const ProviderParams = z.object({ providerId: z.string().min(1).max(128) });
export type ProviderParams = z.infer<typeof ProviderParams>;
export const ProviderRemoved = z.looseObject({ borrado: z.literal(true) });
export type ProviderRemoved = z.infer<typeof ProviderRemoved>;

/** An ACP agent program the service knows (goose, Gemini CLI, ...), found on the PATH or not. */
export const AgentProgram = z.looseObject({
  /** `goose`, `gemini`, `claude-code`, `codex`, `opencode`, or `command` for one the person added. */
  id: z.string(),
  nombre: z.string(),
  /** The command the service runs (found on the PATH, or the person's). */
  comando: z.array(z.string()),
  encontrado: z.boolean(),
  /** The one line that installs it (empty for the person's own command). */
  instalar: z.string(),
  /** What it needs besides installing, in words ("an ANTHROPIC_API_KEY", "a sign-in with `gemini`"). */
  necesita: z.string(),
  /** The engine it runs as (`engine-c` or `engine-d`), or null when it has no place. */
  motor: z.enum(['engine-c', 'engine-d']).nullable(),
});
export type AgentProgram = z.infer<typeof AgentProgram>;
export const AgentPrograms = z.looseObject({ programas: z.array(AgentProgram) });
export type AgentPrograms = z.infer<typeof AgentPrograms>;

export const AgentProgramParams = z.object({ motor: z.enum(['engine-c', 'engine-d']) });
export type AgentProgramParams = z.infer<typeof AgentProgramParams>;
/** Puts a known program (`programa`) or a command of the person's (`comando`, `nombre`) in a place; `{}` gives the place back to what is found. */
export const SetAgentProgramBody = z.strictObject({
  programa: z.string().min(1).max(64).optional(),
  comando: z.array(z.string().min(1).max(1024)).min(1).max(64).optional(),
  nombre: z.string().trim().min(1).max(64).optional(),
});
export type SetAgentProgramBody = z.infer<typeof SetAgentProgramBody>;

const PROVIDERS = '/api/v2/me/model-providers';
const PROGRAMS = '/api/v2/me/agent-programs';

export const modelProvidersSection = [
  defineRoute({
    operationId: 'listModelProviders',
    method: 'GET',
    path: PROVIDERS,
    tag: 'account',
    summary: 'The person’s model providers and the models each one lists',
    description:
      'Our extension. Providers from the service’s environment (on a service that answers on this computer only), a running Ollama it found, and the ones the person added. Keys are shown masked only.',
    scope: 'agents:read',
    credential: 'oauth',
    request: {},
    responses: { 200: ok('The providers.', ModelProviders) },
    extension: true,
  }),
  defineRoute({
    operationId: 'addModelProvider',
    method: 'POST',
    path: PROVIDERS,
    tag: 'account',
    summary:
      'Add a model provider: the key is tried by listing its models, and kept encrypted only if it works',
    description:
      'Our extension. 400 `clave_rechazada` when the provider refuses the key, `proveedor_inalcanzable` when it cannot be reached, `body_invalido` for a missing key or base URL; `detalle` says which, naming the provider ("Anthropic refused this key (401)").',
    scope: 'agents:write',
    credential: 'oauth',
    request: {
      body: { kind: 'json', schema: AddModelProviderBody, required: true, maxBytes: JSON_BODY_MAX },
    },
    responses: {
      201: ok('The provider, with its models and the key masked.', ModelProvider),
      400: invalid('The key was refused, the server could not be reached, or the body is incomplete.'),
    },
    extension: true,
  }),
  defineRoute({
    operationId: 'removeModelProvider',
    method: 'DELETE',
    path: `${PROVIDERS}/{providerId}`,
    tag: 'account',
    summary: 'Remove a provider the person added, and its key',
    description:
      'Our extension. Providers from the environment or a found Ollama cannot be removed here (409 `proveedor_del_entorno`).',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: ProviderParams },
    responses: {
      200: ok('Removed.', ProviderRemoved),
      404: notFound,
      409: invalid('The provider comes from the environment or a found Ollama (`proveedor_del_entorno`).'),
    },
    extension: true,
  }),
  defineRoute({
    operationId: 'listAgentPrograms',
    method: 'GET',
    path: PROGRAMS,
    tag: 'account',
    summary: 'The ACP agent programs this service knows, found or missing, and the engine each runs as',
    description:
      'Our extension. Each known program with whether it is on the service’s PATH, the line that installs it and what it needs; `motor` is the engine (`engine-c`, `engine-d`) it runs as.',
    scope: 'agents:read',
    credential: 'oauth',
    request: {},
    responses: { 200: ok('The programs.', AgentPrograms) },
    extension: true,
  }),
  defineRoute({
    operationId: 'setAgentProgram',
    method: 'PUT',
    path: `${PROGRAMS}/{motor}`,
    tag: 'account',
    summary: 'Choose the program an engine place runs: a known one, or a command of the person’s',
    description:
      'Our extension, for the service’s owner only (the account of this computer): 403 `solo_propietario` for anyone else, since the command runs on the service’s computer. `{}` gives the place back to what is found on the PATH.',
    scope: 'agents:write',
    credential: 'oauth',
    request: {
      params: AgentProgramParams,
      body: { kind: 'json', schema: SetAgentProgramBody, required: true, maxBytes: JSON_BODY_MAX },
    },
    responses: {
      200: ok('The programs, as after the change.', AgentPrograms),
      400: invalid('An unknown `programa`, or neither `programa` nor `comando` with a name.'),
      403: invalid('Only the service’s owner sets the programs it runs (`solo_propietario`).'),
    },
    extension: true,
  }),
] as const;
