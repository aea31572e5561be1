import { startAgentConfig, type AgentConfigArea } from './agent-config/agent-config-area';
import type { CoreContext } from './core-context';
import { startEngines } from './engine/engine-area';
import type { EnginePlaces } from './engine/engine-places';
import type { EngineHost } from './engine/types';
import { startProviders } from './providers/providers-area';
import type { ProviderRegistry } from './providers/provider-registry';
import { startConversations, type ConversationsArea } from './turns/conversations-area';

export type { CoreContext } from './core-context';

/** What every route module receives: the core fields and each area, built once by `buildServiceContext`. */
export interface ServiceContext extends CoreContext {
  /** The engine layer: ACP machines per agent (engine/types). */
  readonly engines: EngineHost;
  /** The engines' commands now, with the agent programs in `engine-c` and `engine-d` (engine/engine-places). */
  readonly enginePlaces: EnginePlaces;
  /** The person's model providers, which the model agent (`engine-e`) thinks with (providers/). */
  readonly providers: ProviderRegistry;
  /** Conversations and their turns, schedules, the allowance. */
  readonly conversations: ConversationsArea;
  /** The agent's configuration, its files, library, audio, connectors and devices. */
  readonly agentConfig: AgentConfigArea;
}

/**
 * Builds every area in order on the one context object (its listen fields are set later, and areas read them
 * when used): providers and engines first, then conversations, then agent configuration. Turns ask the agent configuration for a
 * turn's model and tools only when a turn launches, so that arrow is a function given here, not an import.
 */
export async function buildServiceContext(core: CoreContext): Promise<ServiceContext> {
  const providers = await startProviders(core);
  const { host: engines, places: enginePlaces } = startEngines(core, async (agentId) => {
    const personId = await core.identity.agents.ownerOf(agentId);
    return personId ? providers.handoff(personId) : { providers: [] };
  });
  // Set once the agent configuration is built; a schedule due at start may launch a turn before that.
  const later: { agentConfig?: AgentConfigArea } = {};
  const conversations = startConversations(
    core,
    engines,
    async (agentId, channel) => (await later.agentConfig?.turnOptions(agentId, channel)) ?? {},
  );
  const agentConfig = await startAgentConfig(core, {
    engines,
    engineCommands: enginePlaces.engines,
    allowance: conversations.allowance,
  });
  later.agentConfig = agentConfig;
  return Object.assign(core, { engines, enginePlaces, providers, conversations, agentConfig });
}
