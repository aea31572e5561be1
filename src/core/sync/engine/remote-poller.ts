/**
 * The cheap look at the remote in watch mode: on each tick, ask whether the remote moved (a
 * conditional read where the server offers one) and run a cycle when it did. One look at a time,
 * and none while a cycle runs. While the agent is idle (nothing moved for a few looks) the looks
 * space out, doubling up to a cap; a change, a turn or a local edit brings them back at once.
 */
export interface RemotePollerOptions {
  /** The period while the agent is active (2 s in the app and the CLI). */
  periodMs: number;
  /** Back-off while nothing moves; `false` keeps the period fixed. */
  idle?: PollBackOff | false;
  /** Whether the remote moved since the last look. */
  hasChanged: () => Promise<boolean>;
  /** Whether a cycle runs now (or the engine closed): the tick is skipped. */
  busy: () => boolean;
  onChange: () => Promise<unknown>;
}

export interface PollBackOff {
  /** Quiet looks at the full pace before the looks space out. */
  quietLooks: number;
  /** The longest period, as a multiple of `periodMs`. */
  maxFactor: number;
}

/** 2 s for 5 quiet looks (10 s), then 4, 8, 16 s: a write of an idle agent arrives within 16 s. */
export const defaultBackOff: PollBackOff = { quietLooks: 5, maxFactor: 8 };

export interface RemotePoller {
  /** The agent works (a turn runs, a file changed): back to the full pace, a look within one period. */
  quicken(): void;
  /** The period until the next look. */
  readonly currentPeriodMs: number;
  stop(): void;
}

export function pollRemote(options: RemotePollerOptions): RemotePoller {
  const backOff = options.idle === undefined ? defaultBackOff : options.idle;
  const fast = options.periodMs;
  let period = fast;
  let quiet = 0;
  let looking = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let dueAt = 0;

  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (stopped) return;
    dueAt = Date.now() + ms;
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const settle = (changed: boolean) => {
    if (changed || !backOff) {
      quiet = 0;
      period = fast;
    } else if ((quiet += 1) >= backOff.quietLooks) {
      period = Math.min(period * 2, fast * backOff.maxFactor);
    }
  };
  const tick = () => {
    if (looking || options.busy()) return schedule(period);
    looking = true;
    options
      .hasChanged()
      .then(async (changed) => {
        settle(changed);
        if (changed) await options.onChange();
      })
      .catch(() => settle(false)) // a failed look is retried later; the cycle reports errors
      .finally(() => {
        looking = false;
        schedule(period);
      });
  };

  schedule(fast);
  return {
    quicken() {
      quiet = 0;
      period = fast;
      // A look further away than one period is brought forward; one in flight reschedules itself.
      if (!looking && dueAt - Date.now() > fast) schedule(fast);
    },
    get currentPeriodMs() {
      return period;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
