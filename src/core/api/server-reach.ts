import { connect } from 'node:net';

/** How long a reach check waits for the server's port before calling it unreachable. */
export const REACH_TIMEOUT_MS = 2500;

/**
 * Whether anything listens at the server's address: one TCP connection, opened and closed, no request
 * (no auth, no work for the server, no spec route). Resolves to the origin when nothing answers in time
 * (refused, no route, no name), undefined when the port took the connection. A port that takes it but
 * then fails the request is left to the request's own error.
 */
export function unreachableOrigin(
  baseUrl: string | undefined,
  timeoutMs = REACH_TIMEOUT_MS,
): Promise<string | undefined> {
  if (!baseUrl) return Promise.resolve(undefined); // no server chosen: nothing to reach
  const url = new URL(baseUrl);
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable ? undefined : url.origin);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
