import type { CoreContext } from '../core-context';
import { createTokenSealer } from '../connectors/token-sealer';
import { loadSealingKey } from '../library/sealing-key';
import { environmentProviders } from './environment-providers';
import { createOllamaProbe } from './ollama-probe';
import { createProviderRegistry, type ProviderRegistry } from './provider-registry';
import { createProviderStore } from './provider-store';
import { keptProviderStore } from './kept-provider-store';

/**
 * The providers of the service (./provider-registry.ts), before the engines that hand them to the model
 * agent. Keys the people add are sealed with a key in the starting app's keychain, else
 * `<dataDir>/keys/model-provider-keys.key` (library/sealing-key.ts). The environment's
 * providers and a running Ollama are lent to every person only on a service that answers on this computer;
 * Ollama is looked for once at start, without holding the start up.
 */
export async function startProviders(ctx: CoreContext): Promise<ProviderRegistry> {
  const sealer = createTokenSealer(
    await loadSealingKey(ctx.dataDir, 'model-provider-keys', ctx.keyring, ctx.log),
  );
  const lendsEnvironment = !ctx.serving.publicOrigin;
  const ollama = createOllamaProbe();
  if (lendsEnvironment) void ollama.look();
  const stored = createProviderStore(ctx.db, ctx.clock, sealer);
  // On PostgreSQL a service is one process of a cluster (cluster/): another may have changed the list, so it
  // reads afresh each time.
  let store = stored;
  if (!ctx.sharedEvents) {
    const kept = keptProviderStore(stored);
    ctx.account.register({ name: 'model providers', deleted: (personId) => kept.forget(personId) });
    store = kept;
  }
  const registry = createProviderRegistry({
    store,
    environment: lendsEnvironment ? environmentProviders(process.env) : [],
    ollama,
    lendsEnvironment,
    now: () => ctx.clock.now(),
  });
  registry.warm();
  return registry;
}
