import { connect } from 'node:net';
import { sharedInterval } from '../../shared/timing/shared-interval';

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

/** How often a watched server is checked. */
export const REACH_CHECK_MS = 1000;

export interface ReachWatcher {
  /** The server's base URL now; undefined: none chosen, nothing to check. */
  server(): string | undefined;
  /** Whether to skip this check (already known unreachable, paused, closed). */
  skip(): boolean;
  /** Nothing listens at the server: its origin. */
  onUnreachable(origin: string): void;
}

/** Origins whose check is under way (one that waits for its timeout is not checked again meanwhile). */
const checking = new Set<string>();

/**
 * Notices within about a second that a server went away while nothing else asks it: every REACH_CHECK_MS
 * one connection per server, however many watch it (each synced folder and the app's connectivity watch the
 * same one), on one timer. Returns the unwatch.
 */
export const watchReach = sharedInterval<ReachWatcher>(REACH_CHECK_MS, () => checkWatched);

function checkWatched(watchers: ReadonlySet<ReachWatcher>): void {
  const byOrigin = new Map<string, ReachWatcher[]>();
  for (const watcher of watchers) {
    const server = watcher.skip() ? undefined : watcher.server();
    if (!server || !URL.canParse(server)) continue;
    const origin = new URL(server).origin;
    byOrigin.set(origin, [...(byOrigin.get(origin) ?? []), watcher]);
  }
  for (const [origin, group] of byOrigin) {
    if (checking.has(origin)) continue;
    checking.add(origin);
    void unreachableOrigin(origin)
      .then((down) => {
        if (!down) return;
        for (const watcher of group)
          if (watchers.has(watcher) && !watcher.skip()) watcher.onUnreachable(down);
      })
      .finally(() => checking.delete(origin));
  }
}
