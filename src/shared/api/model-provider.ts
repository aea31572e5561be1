import { z } from 'zod';
import { AddModelProviderBody, SetAgentProgramBody, type ProviderKind } from './routes/model-providers';

/**
 * The person's model providers and this computer's agent programs (our extension), in our words. The API
 * client (core/api/model-provider-words.ts) reads them from the wire's `ModelProvider` and `AgentProgram`
 * and writes `NewModelProvider` and `AgentProgramChoice` as the wire's bodies; every other layer uses only
 * these names.
 */

/** Where a provider comes from (the wire's `origen`): the service's environment, a running Ollama it found, or Settings. */
export type ProviderSource = 'environment' | 'found' | 'settings';

/** One model as its provider lists it; `id` is the id the agent's `models` carries. */
export interface ProviderModelInfo {
  id: string;
  label: string;
}

/** One provider of the person's (the wire's `ModelProvider`). */
export interface AccountModelProvider {
  id: string;
  /** `tipo` */
  kind: ProviderKind;
  /** `nombre` */
  name: string;
  /** `origen` */
  source: ProviderSource;
  /** `urlBase`: null for the provider's own address. */
  baseUrl: string | null;
  /** `clave`: masked ("sk-…abcd"), null where the kind takes none. Never the key itself. */
  maskedKey: string | null;
  /** `modelos` */
  models: ProviderModelInfo[];
  /** `error`: why the models could not be listed just now, in the service's words. */
  problem: string | null;
}

/** A provider to add (the wire's `AddModelProviderBody`). The key crosses to the host once and is never sent back. */
export const NewModelProvider = z.strictObject({
  kind: AddModelProviderBody.shape.tipo,
  key: AddModelProviderBody.shape.clave,
  baseUrl: AddModelProviderBody.shape.urlBase,
  name: AddModelProviderBody.shape.nombre,
});
export type NewModelProvider = z.infer<typeof NewModelProvider>;

/** The two engine places an agent program can run as. */
export const ProgramEngine = z.enum(['engine-c', 'engine-d']);
export type ProgramEngine = z.infer<typeof ProgramEngine>;

/** An ACP agent program the service knows (the wire's `AgentProgram`). */
export interface AccountAgentProgram {
  /** `goose`, `gemini`, `claude-code`, `codex`, `opencode`, or `command` for one the person added. */
  id: string;
  name: string;
  /** `comando` */
  command: string[];
  /** `encontrado`: on the service's PATH. */
  found: boolean;
  /** `instalar`: the one line that installs it (empty for the person's own command). */
  install: string;
  /** `necesita`: what it needs besides installing, in words. */
  needs: string;
  /** `motor`: the engine place it runs as, or null. */
  engine: ProgramEngine | null;
}

/** What an engine place runs (the wire's `SetAgentProgramBody`): a known program, a command of the person's, or `{}` for what is found. */
export const AgentProgramChoice = z.strictObject({
  program: SetAgentProgramBody.shape.programa,
  command: SetAgentProgramBody.shape.comando,
  name: SetAgentProgramBody.shape.nombre,
});
export type AgentProgramChoice = z.infer<typeof AgentProgramChoice>;
