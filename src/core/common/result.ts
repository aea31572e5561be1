/**
 * Errors are values: every fallible call in core returns a `Result` instead of throwing,
 * so callers must look at the failure and can show its plain sentence.
 */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function err<E>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}

/** What `fetch` looks like to core: the global one, Electron's `net.fetch`, or a test wrapper. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Waits `ms`, or rejects early when `signal` aborts. Injectable so tests need no real waiting. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
