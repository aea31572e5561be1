import { nextDueAfter, type SchedulePlan } from './schedule-rules';
import type { TimerHandle, Timers } from '../timers';

export interface ScheduledItem extends SchedulePlan {
  id: string;
}

/** Durable storage the scheduler reads and moves forward (the database in the service). */
export interface ScheduleSource<T extends ScheduledItem = ScheduledItem> {
  /** Every pending (not cancelled, not finished) scheduled turn. */
  pending(): Promise<T[]> | T[];
  /** Moves a periodic item to its next due time. */
  reschedule(id: string, dueAt: number): Promise<void> | void;
  /** Marks a one-off (or exhausted periodic) item as done. */
  finish(id: string): Promise<void> | void;
}

/**
 * Fires scheduled turns when they fall due, with one timer armed for the earliest of them.
 * Start-up fires every overdue item once (a turn missed during downtime fires once), then a
 * periodic item resumes from its next future occurrence.
 * Due times are wall-clock instants (the API's `dueAt`) while the timer waits on the monotonic clock, so a
 * clock that jumps re-arms it: a day forward fires what fell due once, an hour back fires nothing again.
 */
export class Scheduler<T extends ScheduledItem = ScheduledItem> {
  private timer: TimerHandle | null = null;
  private closed = false;
  private stopWatching: (() => void) | undefined;
  // Ticks and re-arms run one after another: the source answers asynchronously.
  private work: Promise<void> = Promise.resolve();

  constructor(
    private readonly source: ScheduleSource<T>,
    private readonly timers: Timers,
    private readonly fire: (item: T) => unknown,
  ) {}

  start(): void {
    this.stopWatching = this.timers.onJump?.(() => this.changed());
    this.catchUp();
  }

  /** Fires every item due now, then arms for the earliest: at start, or when the source yields more items. */
  catchUp(): void {
    if (!this.closed) this.run(() => this.tick());
  }

  /** Call after an item was added or cancelled so the timer follows the earliest due time. */
  changed(): void {
    if (!this.closed) this.run(() => this.arm());
  }

  /** Settles once the ticks and re-arms asked for so far are done. */
  settled(): Promise<void> {
    return this.work;
  }

  private run(step: () => Promise<void>): void {
    this.work = this.work.then(step).catch((err: unknown) => {
      console.error(`scheduler: ${(err as Error).message}`);
    });
  }

  close(): void {
    this.closed = true;
    this.stopWatching?.();
    if (this.timer) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  private async tick(): Promise<void> {
    if (this.closed) return;
    const now = this.timers.now();
    for (const item of await this.source.pending()) {
      if (item.dueAt > now) continue;
      // Move the item on before firing, so a failing fire can never make it fire twice.
      const next = nextDueAfter(item, now);
      if (next === null) await this.source.finish(item.id);
      else await this.source.reschedule(item.id, next);
      try {
        await this.fire(item);
      } catch (err) {
        console.error(`scheduler: scheduled turn ${item.id} failed to start: ${(err as Error).message}`);
      }
    }
    await this.arm();
  }

  private async arm(): Promise<void> {
    let earliest = Infinity;
    for (const item of await this.source.pending()) earliest = Math.min(earliest, item.dueAt);
    if (this.timer) this.timers.clearTimeout(this.timer);
    this.timer = null;
    if (earliest === Infinity || this.closed) return;
    this.timer = this.timers.setTimeout(
      () => this.run(() => this.tick()),
      Math.max(0, earliest - this.timers.now()),
    );
  }
}
