/**
 * The messages browser mode sends over its WebSocket to carry `DeskBridge`
 * (src/browser/bridge-socket.ts on the host, src/renderer/bridge/ on the page).
 * JSON only. The first message from the page must be `hello` with the
 * per-launch key; the host answers `ready` or closes the socket.
 */
import type { DeskError, DeskResult } from './desk-result';

/** The path of the bridge socket on the browser-mode server. */
export const BRIDGE_SOCKET_PATH = '/desk';

/** Close codes the host uses (4000-4999 is the application range). */
export const bridgeSocketCloseCodes = {
  unauthorized: 4401,
  badMessage: 4400,
  shuttingDown: 4503,
} as const;

export type PageMessage =
  | { type: 'hello'; key: string }
  | { type: 'call'; id: number; name: string; args: unknown[] }
  | { type: 'subscribe'; id: number; name: string; args: unknown[] }
  | { type: 'unsubscribe'; id: number };

export type HostMessage =
  | { type: 'ready' }
  | { type: 'result'; id: number; result: DeskResult<unknown> }
  | { type: 'event'; id: number; payload: unknown }
  | { type: 'subscribe-failed'; id: number; error: DeskError }
  /** Browser mode's "system browser": the page opens this URL in a new tab (sign-in). */
  | { type: 'open-url'; url: string }
  /** Browser mode's OS notification: the page shows it with the Notification API when allowed. */
  | { type: 'notify'; title: string; body?: string };

/** Reads a page message, or undefined when it is not one. */
export function parsePageMessage(text: string): PageMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as Record<string, unknown>;
  switch (message['type']) {
    case 'hello':
      return typeof message['key'] === 'string' ? { type: 'hello', key: message['key'] } : undefined;
    case 'call':
    case 'subscribe':
      if (
        typeof message['id'] === 'number' &&
        typeof message['name'] === 'string' &&
        Array.isArray(message['args'])
      ) {
        return { type: message['type'], id: message['id'], name: message['name'], args: message['args'] };
      }
      return undefined;
    case 'unsubscribe':
      return typeof message['id'] === 'number' ? { type: 'unsubscribe', id: message['id'] } : undefined;
    default:
      return undefined;
  }
}
