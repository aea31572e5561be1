/**
 * A time budget for markdown parsing, so a fast stream of long replies never
 * holds the main thread: a little parsing may happen at once in each frame,
 * and the rest waits in a queue worked through in idle slices of a few
 * milliseconds. Newest work runs first, since that is what a streaming reply
 * shows at the bottom. DOM-free: the clock and the idle scheduler are injected.
 */
export interface IdleScheduler {
  /** Runs `callback` when the thread is idle (or after a while anyway); it gets the ms it may use. */
  request(callback: (timeRemaining: () => number) => void): void;
}

/** Calls back at the next frame (requestAnimationFrame in the app). */
export type NextFrame = (callback: () => void) => void;

export interface ParseBudget {
  /** Runs `work` now when this frame's budget allows it and returns its result; otherwise undefined. */
  tryNow<T>(work: () => T): T | undefined;
  /** Runs `work` now whatever the budget (the open block), counting its time. */
  spend<T>(work: () => T): T;
  /** Queues `job` for an idle slice. Returns a cancel function. */
  enqueue(job: () => void): () => void;
}

export interface ParseBudgetOptions {
  now: () => number;
  idle: IdleScheduler;
  nextFrame: NextFrame;
  /** Parsing allowed at once per frame. */
  perFrameMs: number;
  /** Longest idle slice. */
  sliceMs: number;
}

export function createParseBudget(options: ParseBudgetOptions): ParseBudget {
  // Time spent since the last frame. Reset by the frame itself, not by a clock, so one long task
  // (a render of many blocks) never counts as several frames.
  let spent = 0;
  let resetAsked = false;
  // Jobs in arrival order; a cancelled job is set to undefined and skipped.
  const jobs: ((() => void) | undefined)[] = [];
  let live = 0;
  let scheduled = false;

  const measure = <T>(work: () => T): T => {
    const now = options.now();
    if (!resetAsked) {
      resetAsked = true;
      options.nextFrame(() => {
        resetAsked = false;
        spent = 0;
      });
    }
    try {
      return work();
    } finally {
      spent += options.now() - now;
    }
  };

  const slice = (timeRemaining: () => number) => {
    scheduled = false;
    const start = options.now();
    const until = start + Math.min(options.sliceMs, Math.max(1, timeRemaining()));
    // At least one job per slice, so a job longer than the slice still gets its turn.
    do {
      const job = jobs.pop();
      if (!job) continue;
      live -= 1;
      job();
    } while (jobs.length > 0 && options.now() < until);
    while (jobs.length > 0 && jobs[jobs.length - 1] === undefined) jobs.pop();
    if (live > 0) schedule();
    else jobs.length = 0;
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    options.idle.request(slice);
  };

  return {
    tryNow(work) {
      return spent < options.perFrameMs ? measure(work) : undefined;
    },
    spend: measure,
    enqueue(job) {
      const index = jobs.push(job) - 1;
      live += 1;
      schedule();
      return () => {
        if (jobs[index] !== job) return;
        jobs[index] = undefined;
        live -= 1;
      };
    },
  };
}
