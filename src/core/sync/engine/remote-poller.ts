/**
 * The cheap look at the remote in watch mode: on each tick, ask whether the remote moved (a
 * conditional read where the server offers one) and run a cycle when it did. One look at a time,
 * and none while a cycle runs.
 */
export interface RemotePollerOptions {
  periodMs: number;
  /** Whether the remote moved since the last look. */
  hasChanged: () => Promise<boolean>;
  /** Whether a cycle runs now (or the engine closed): the tick is skipped. */
  busy: () => boolean;
  onChange: () => Promise<unknown>;
}

/** Starts polling; the returned function stops it. */
export function pollRemote(options: RemotePollerOptions): () => void {
  let looking = false;
  const timer = setInterval(() => {
    if (looking || options.busy()) return;
    looking = true;
    options
      .hasChanged()
      .then((changed) => (changed ? options.onChange() : undefined))
      .catch(() => undefined) // a failed look is retried on the next tick; the cycle reports errors
      .finally(() => (looking = false));
  }, options.periodMs);
  timer.unref();
  return () => clearInterval(timer);
}
