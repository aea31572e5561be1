import type { EnginePlaces } from '../engine/engine-places';
import type { ProviderRegistry } from './provider-registry';
import { DEMO_ENGINE, MODEL_AGENT_ENGINE } from '../engine/types';

/**
 * The engine of a person's first agent: the model agent when a provider with a model is found for them (the
 * environment's or a running Ollama, on this computer), so a real model answers from the first message; else
 * the demo agent. A command configured in the model agent's place does not count as the model agent.
 */
export async function firstEngineFor(
  ctx: { enginePlaces: EnginePlaces; providers: ProviderRegistry },
  personId: string,
): Promise<string> {
  if (ctx.enginePlaces.engines[MODEL_AGENT_ENGINE]?.command.length) return DEMO_ENGINE;
  return (await ctx.providers.offersModels(personId)) ? MODEL_AGENT_ENGINE : DEMO_ENGINE;
}
