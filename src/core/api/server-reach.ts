import { connect, type Socket } from 'node:net';
import { sharedInterval } from '../../shared/timing/shared-interval';

/** How long a reach check waits for the server's port before calling it unreachable. */
export const REACH_TIMEOUT_MS = 2500;

/**
 * One TCP connection to the origin, no request (no auth, no work for the server, no spec route). Resolves
 * to the open socket, or undefined when nothing answers in time (refused, no route, no name).
 */
function connectTo(origin: string, timeoutMs: number): Promise<Socket | undefined> {
  const url = new URL(origin);
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const fail = () => {
      socket.destroy();
      resolve(undefined);
    };
    socket.setTimeout(timeoutMs, fail);
    socket.once('error', fail);
    socket.once('connect', () => {
      socket.off('error', fail);
      socket.setTimeout(0);
      resolve(socket);
    });
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

/** Origins whose connection is being opened (one that waits for its timeout is not tried again meanwhile). */
const checking = new Set<string>();

/**
 * The connection kept open to each watched origin. While it stays open the server is there, and a check
 * costs nothing: opening and closing a connection every second was most of an idle sync's CPU (on loopback
 * the kernel does the server's half of the handshake in the caller's time). A server that stops or dies
 * closes it, and the next check's new connection says whether anything listens; kernel keepalive closes it
 * when the path to a remote server is lost.
 */
const held = new Map<string, Socket>();

function hold(origin: string, socket: Socket): void {
  held.set(origin, socket);
  socket.setKeepAlive(true, REACH_CHECK_MS);
  socket.unref(); // never what keeps a CLI run alive
  socket.on('error', () => socket.destroy()); // a reset: 'close' follows
  socket.once('close', () => {
    if (held.get(origin) === socket) held.delete(origin);
  });
  socket.resume(); // a server that speaks first (a 408 before closing) is read and ignored
}

function release(origin: string): void {
  held.get(origin)?.destroy();
  held.delete(origin);
}

/**
 * Notices within about a second that a server went away while nothing else asks it: every REACH_CHECK_MS,
 * for each server watched, however many watch it (each synced folder and the app's connectivity watch the
 * same one), on one timer. Returns the unwatch.
 */
export const watchReach = sharedInterval<ReachWatcher>(
  REACH_CHECK_MS,
  () => checkWatched,
  () => [...held.keys()].forEach(release),
);

function checkWatched(watchers: ReadonlySet<ReachWatcher>): void {
  const byOrigin = new Map<string, ReachWatcher[]>();
  for (const watcher of watchers) {
    const server = watcher.skip() ? undefined : watcher.server();
    if (!server || !URL.canParse(server)) continue;
    const origin = new URL(server).origin;
    byOrigin.set(origin, [...(byOrigin.get(origin) ?? []), watcher]);
  }
  for (const origin of held.keys()) if (!byOrigin.has(origin)) release(origin);
  for (const [origin, group] of byOrigin) {
    if (held.has(origin) || checking.has(origin)) continue;
    checking.add(origin);
    void connectTo(origin, REACH_TIMEOUT_MS)
      .then((socket) => {
        if (socket) {
          if (group.some((watcher) => watchers.has(watcher))) hold(origin, socket);
          else socket.destroy();
          return;
        }
        for (const watcher of group)
          if (watchers.has(watcher) && !watcher.skip()) watcher.onUnreachable(origin);
      })
      .finally(() => checking.delete(origin));
  }
}
