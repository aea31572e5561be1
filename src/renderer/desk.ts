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

/** The host, through `window.desk` only. Calls made with no host resolve to a plain failure. */
export function desk(): DeskBridge {
  if (window.desk) return window.desk;
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
