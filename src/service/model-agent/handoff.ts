import { z } from 'zod';
import { ProviderKind } from '../../shared/api/routes/model-providers';

/**
 * What the service hands the model agent (engine `engine-e`), under `_meta[HANDOFF_META_KEY]` of ACP
 * `session/new`, `session/load`, `session/prompt` and `session/set_config_option`: the person's
 * providers with their keys, fresh on every request, so a key added or removed applies from the next
 * turn without a restart. Keys travel only over the agent's stdio pipe: never in its environment
 * (its tools and MCP servers inherit that), on disk or in a log.
 */
export const HANDOFF_META_KEY = 'agentdesk/providers';

export const HandedModel = z.object({
  /** The provider's own model id, as it lists it. */
  id: z.string(),
  label: z.string(),
  /** Tokens the model takes in, where the provider says. */
  contextWindow: z.number().int().positive().optional(),
  /** USD per million tokens, where the price is known; never guessed. */
  price: z.object({ input: z.number(), output: z.number() }).optional(),
});
export type HandedModel = z.infer<typeof HandedModel>;

export const HandedProvider = z.object({
  id: z.string(),
  kind: ProviderKind,
  /** What a person calls it, for labels and error words ("Anthropic refused this key (401)"). */
  name: z.string(),
  /** Base URL of the provider's API (e.g. https://api.openai.com/v1); the kind's default when absent. */
  baseURL: z.string().optional(),
  apiKey: z.string().optional(),
  models: z.array(HandedModel),
  /** Why the provider lists no model now, in words ("… refused this key (401)."), when its listing failed. */
  problem: z.string().optional(),
});
export type HandedProvider = z.infer<typeof HandedProvider>;

export const Handoff = z.object({
  providers: z.array(HandedProvider),
  /** The model id (see `modelChoices`) a new session starts on; the first listed when absent. */
  defaultModel: z.string().optional(),
});
export type Handoff = z.infer<typeof Handoff>;

/** One model the agent offers: `id` is what the agent's `models[].id` and ACP's model selector carry. */
export interface ModelChoice {
  id: string;
  label: string;
  providerId: string;
  model: HandedModel;
}

/**
 * Every model of every provider, as the agent offers them, grouped by provider in the providers' order.
 * The id is the provider's own model id; when an earlier provider already offers that id, it is
 * `<providerId>:<model id>`, so ids stay unique and the common case stays what the provider lists.
 */
export function modelChoices(providers: readonly HandedProvider[]): ModelChoice[] {
  const taken = new Set<string>();
  const choices: ModelChoice[] = [];
  for (const provider of providers) {
    for (const model of provider.models) {
      const id = taken.has(model.id) ? `${provider.id}:${model.id}` : model.id;
      taken.add(id);
      choices.push({ id, label: `${model.label} · ${provider.name}`, providerId: provider.id, model });
    }
  }
  return choices;
}
