import type {
  AddModelProviderBody,
  ModelProvider,
  ProviderOrigin,
} from '../../shared/api/routes/model-providers';
import type { Handoff, HandedProvider } from '../model-agent/handoff';
import { refuse, success, type Outcome } from '../outcome';
import type { FoundProvider } from './environment-providers';
import { listModels, type Listing } from './list-models';
import type { OllamaProbe } from './ollama-probe';
import { KINDS, maskKey, normalBase, usableBase } from './provider-kinds';
import type { ProviderStore, StoredProvider } from './provider-store';

/** A listing is kept this long, so opening Settings or the studio twice asks the provider once. */
const LISTING_TTL_MS = 60_000;
/** A failed listing is tried again sooner: the server may have just started. */
const FAILED_TTL_MS = 5_000;

type Provider = (FoundProvider | (StoredProvider & { origin: 'ajustes' })) & { origin: ProviderOrigin };
export type AddRefusal = 'key_refused' | 'unreachable' | 'incomplete';

export interface RegistryDeps {
  store: ProviderStore;
  /** The providers of the service's environment, read once at start. */
  environment: FoundProvider[];
  ollama: OllamaProbe;
  /**
   * Whether the environment's providers (and a found Ollama) serve every person: on a service that answers on
   * this computer only. On a server a person uses only the keys they added.
   */
  lendsEnvironment: boolean;
  now: () => number;
}

/**
 * The person's model providers: the environment's and a running Ollama (on this computer only), then the ones
 * they added; each with the models it lists itself (asked with a timeout, kept a minute). What the model agent
 * is handed (`handoff`) and what the routes show (`list`, keys masked) both come from here.
 */
export function createProviderRegistry(deps: RegistryDeps) {
  const listings = new Map<string, { at: number; listing: Promise<Listing> }>();
  const listeners = new Set<(personId: string) => void>();

  function listingOf(provider: Provider): Promise<Listing> {
    // Keyed by what is asked, so a key or address that changes is asked afresh.
    const cacheKey = `${provider.id}\0${provider.base}\0${provider.key ?? ''}`;
    const kept = listings.get(cacheKey);
    const now = deps.now();
    if (kept && now - kept.at < LISTING_TTL_MS) return kept.listing;
    const listing = listModels({
      kind: provider.kind,
      name: provider.name,
      base: provider.base,
      key: provider.key,
    });
    listings.set(cacheKey, { at: now, listing });
    // A failure is forgotten sooner: a server that was down is asked again soon.
    void listing.then((l) => {
      if (!l.ok && listings.get(cacheKey)?.listing === listing)
        listings.set(cacheKey, { at: now - LISTING_TTL_MS + FAILED_TTL_MS, listing });
    });
    return listing;
  }

  async function providersOf(personId: string, waitForOllama: boolean): Promise<Provider[]> {
    const own = (await deps.store.list(personId)).map((p) => ({ ...p, origin: 'ajustes' as const }));
    if (!deps.lendsEnvironment) return own;
    const ollama = waitForOllama ? await deps.ollama.look() : deps.ollama.current();
    // OLLAMA_HOST already names Ollama: the one found by itself would be the same one twice.
    const found = deps.environment.some((p) => p.kind === 'ollama') ? [] : ollama;
    return [...deps.environment, ...found, ...own];
  }

  function changed(personId: string): void {
    for (const listener of listeners) listener(personId);
  }

  function wire(provider: Provider, listing: Listing): ModelProvider {
    return {
      id: provider.id,
      tipo: provider.kind,
      nombre: provider.name,
      origen: provider.origin,
      urlBase: provider.base === KINDS[provider.kind].defaultBase ? null : provider.base,
      clave: provider.key ? maskKey(provider.key) : null,
      modelos: listing.ok ? listing.models.map(({ id, label }) => ({ id, label })) : [],
      error: listing.ok ? null : listing.message,
    };
  }

  return {
    lendsEnvironment: deps.lendsEnvironment,

    /** The person's providers as GET model-providers shows them: keys masked, models as each lists them. */
    async list(personId: string): Promise<ModelProvider[]> {
      const providers = await providersOf(personId, true);
      return Promise.all(providers.map(async (p) => wire(p, await listingOf(p))));
    },

    /** Tries the key by listing the provider's models; keeps it (sealed) only when that works. */
    async add(personId: string, body: AddModelProviderBody): Promise<Outcome<ModelProvider, AddRefusal>> {
      const kind = KINDS[body.tipo];
      if (kind.takesKey && body.tipo !== 'openai-compatible' && !body.clave)
        return refuse('incomplete', `${kind.name} needs a key (clave).`);
      const base = normalBase(body.tipo, body.urlBase);
      if (!base) return refuse('incomplete', 'A server of this kind needs its address (urlBase).');
      if (!usableBase(base)) return refuse('incomplete', 'The address must be an http or https URL.');
      const name =
        body.nombre ??
        (body.tipo === 'openai-compatible' ? `${kind.name} (${new URL(base).host})` : kind.name);
      const candidate = {
        kind: body.tipo,
        name,
        base,
        ...(body.clave && kind.takesKey ? { key: body.clave } : {}),
      };
      const listing = await listModels(candidate);
      if (!listing.ok) return refuse(listing.code, listing.message);
      const stored = await deps.store.add(personId, candidate);
      const provider: Provider = { ...stored, origin: 'ajustes' };
      listings.set(`${stored.id}\0${stored.base}\0${stored.key ?? ''}`, {
        at: deps.now(),
        listing: Promise.resolve(listing),
      });
      changed(personId);
      return success(wire(provider, listing));
    },

    /** Removes a provider the person added, and its key. */
    async remove(personId: string, id: string): Promise<'removed' | 'not_found' | 'found_here'> {
      if (await deps.store.remove(personId, id)) {
        changed(personId);
        return 'removed';
      }
      const found =
        deps.lendsEnvironment && [...deps.environment, ...deps.ollama.current()].some((p) => p.id === id);
      return found ? 'found_here' : 'not_found';
    },

    /**
     * What the model agent is handed for this person: every provider with its key and models. Never waits
     * for Ollama (a turn starts at once) and asks the providers only when their listing is stale.
     */
    async handoff(personId: string): Promise<Handoff> {
      const providers = await providersOf(personId, false);
      const handed = await Promise.all(
        providers.map(async (p): Promise<HandedProvider> => {
          const listing = await listingOf(p);
          return {
            id: p.id,
            kind: p.kind,
            name: p.name,
            // Ollama is handed its OpenAI-compatible API, which the agent speaks to it.
            baseURL: p.kind === 'ollama' ? `${p.base}/v1` : p.base,
            ...(p.key ? { apiKey: p.key } : {}),
            ...(listing.ok ? { models: listing.models } : { models: [], problem: listing.message }),
          };
        }),
      );
      return { providers: handed };
    },

    /** Whether some provider of the person lists a model (waiting at most 0.7 s for Ollama to be looked for). */
    async offersModels(personId: string): Promise<boolean> {
      const providers = await providersOf(personId, true);
      const listings = await Promise.all(providers.map(listingOf));
      return listings.some((listing) => listing.ok && listing.models.length > 0);
    },

    /** Asks the environment's providers for their models at start, so the first answers need not wait. */
    warm(): void {
      if (deps.lendsEnvironment) for (const provider of deps.environment) void listingOf(provider);
    },

    /** Whether the person has any provider (one that lists no model still counts: its turn says why). */
    async hasAny(personId: string): Promise<boolean> {
      return (await providersOf(personId, false)).length > 0;
    },

    /** Called with the person whose providers changed (added, removed). */
    onChange(listener: (personId: string) => void): void {
      listeners.add(listener);
    },
  };
}

export type ProviderRegistry = ReturnType<typeof createProviderRegistry>;
