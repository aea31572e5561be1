import type { EnginePlaces } from '../engine/engine-places';
import type { ProviderRegistry } from './provider-registry';
import { MODEL_AGENT_ENGINE } from '../engine/types';
import type { AgentRecord } from '../identity/agents';

/**
 * Why a message to this agent cannot be answered for want of a provider (the spec's 402 `own_key_required`),
 * or null. Only the model agent needs one: on a server a person brings their own key; on this computer the
 * environment's providers and a running Ollama count too.
 */
export async function ownKeyMissing(
  ctx: { enginePlaces: EnginePlaces; providers: ProviderRegistry },
  agent: AgentRecord,
): Promise<string | null> {
  if (agent.engine !== MODEL_AGENT_ENGINE || ctx.enginePlaces.engines[MODEL_AGENT_ENGINE]?.command.length)
    return null;
  if (await ctx.providers.hasAny(agent.personId)) return null;
  return ctx.providers.lendsEnvironment
    ? 'This agent thinks with your own model, and none is set up: add a provider in Settings → Models (a key, or a running Ollama).'
    : 'This agent thinks with your own model, and this server offers none: add your own key in Settings → Models.';
}
