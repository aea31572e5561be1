import { OLLAMA_DEFAULT, type FoundProvider } from './environment-providers';

/** Asking whether Ollama runs must never hold a request for long. */
const PROBE_TIMEOUT_MS = 700;
/** A look this recent is trusted; an older one is taken again (at most this often). */
const FRESH_MS = 30_000;

/**
 * Ollama found by itself at 127.0.0.1:11434 (when `OLLAMA_HOST` does not name it): looked for at start and
 * again when asked, once its last look is older than 30 s. `current()` never waits; `look()` waits at most 0.7 s.
 */
export function createOllamaProbe(address: string = OLLAMA_DEFAULT, now: () => number = Date.now) {
  let found = false;
  let lookedAt = -Infinity;
  let looking: Promise<boolean> | null = null;

  async function answers(): Promise<boolean> {
    try {
      const response = await fetch(`${address}/api/tags`, {
        redirect: 'manual',
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      await response.body?.cancel();
      return response.ok;
    } catch {
      return false;
    }
  }

  function look(): Promise<boolean> {
    if (now() - lookedAt < FRESH_MS) return Promise.resolve(found);
    looking ??= answers().then((yes) => {
      found = yes;
      lookedAt = now();
      looking = null;
      return yes;
    });
    return looking;
  }

  const provider = (): FoundProvider => ({
    id: 'ollama',
    kind: 'ollama',
    name: 'Ollama',
    origin: 'ollama',
    base: address,
  });

  return {
    /** Ollama as the last look found it (a stale look is taken again meanwhile), without waiting. */
    current(): FoundProvider[] {
      void look();
      return found ? [provider()] : [];
    },
    /** Looks again when the last look is stale, waiting at most 0.7 s. */
    async look(): Promise<FoundProvider[]> {
      return (await look()) ? [provider()] : [];
    },
  };
}

export type OllamaProbe = ReturnType<typeof createOllamaProbe>;
