import type { DeskBridge, DeskError, DeskResult } from '../shared/bridge';

declare global {
  interface Window {
    /** Provided by the Electron preload or the browser-mode bridge. */
    desk?: DeskBridge;
  }
}

const missing: DeskError = {
  code: 'bridge_unavailable',
  message: 'AgentDesk cannot reach its host. Restart the app and try again.',
};

const failureListeners = new Set<(error: DeskError) => void>();
const watched = new WeakMap<DeskBridge, DeskBridge>();

/** Hears every failed call, wherever it was made (the allowance banner shows a 402 from any of them). */
export function onDeskFailure(listener: (error: DeskError) => void): () => void {
  failureListeners.add(listener);
  return () => failureListeners.delete(listener);
}

function watchFailures(bridge: DeskBridge): DeskBridge {
  let wrapped = watched.get(bridge);
  if (!wrapped) {
    // An empty target: the bridge itself is frozen, and a proxy may not change a frozen object's members.
    wrapped = new Proxy({} as DeskBridge, {
      get: (_empty, name) => {
        const target = bridge;
        const member = Reflect.get(target, name) as unknown;
        if (typeof member !== 'function' || String(name).startsWith('on')) return member;
        return async (...args: unknown[]) => {
          const result = await (member as (...a: unknown[]) => Promise<DeskResult<unknown>>).apply(
            target,
            args,
          );
          if (!result.ok) for (const listener of failureListeners) listener(result.error);
          return result;
        };
      },
    });
    watched.set(bridge, wrapped);
  }
  return wrapped;
}

/** The host, through `window.desk` only. Calls made with no host resolve to a plain failure. */
export function desk(): DeskBridge {
  if (window.desk) return watchFailures(window.desk);
  return new Proxy({} as DeskBridge, {
    get: (_target, name) =>
      String(name).startsWith('on') ? () => () => undefined : async () => ({ ok: false, error: missing }),
  });
}

/** Unwraps a result or throws its DeskError, for callers that catch once. */
export async function expectOk<T>(call: Promise<DeskResult<T>>): Promise<T> {
  const result = await call;
  if (!result.ok) throw result.error;
  return result.value;
}

export function isDeskError(value: unknown): value is DeskError {
  return typeof value === 'object' && value !== null && 'code' in value && 'message' in value;
}
