/**
 * Notices within about a second that the agent's server went away while the folder is quiet: the
 * remote poll's looks space out to 16 s when nothing moves, and a failed request is retried with
 * back-off before a cycle calls the server unreachable. A check that finds nothing listening says so at
 * once; the poll then runs a cycle on every look until the server is back (sync-engine.ts).
 */
/** How often a watching engine checks that its server is there: one TCP connection, no request. */
export const REACH_CHECK_MS = 1000;

export interface ReachWatchOptions {
  everyMs: number;
  /** The server's origin when nothing answers there, undefined when it does. */
  check(): Promise<string | undefined>;
  /** Whether to skip this check (already known unreachable, paused, closed). */
  skip(): boolean;
  onUnreachable(server: string): void;
}

export function watchReach(options: ReachWatchOptions): () => void {
  let checking = false;
  const timer = setInterval(() => {
    if (checking || options.skip()) return;
    checking = true;
    void options
      .check()
      .then((server) => {
        if (server && !options.skip()) options.onUnreachable(server);
      })
      .finally(() => (checking = false));
  }, options.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** What the folder's status says while the server cannot be reached (a cycle says the same). */
export const unreachableMessage = (server: string): string =>
  `Can't reach ${server}; your changes are kept and will be sent when it is back.`;
