import { nextDueAfter, type SchedulePlan } from './schedule-rules';
import type { TimerHandle, Timers } from '../timers';

export interface ScheduledItem extends SchedulePlan {
  id: string;
}

/** Durable storage the scheduler reads and moves forward (the database in the service). */
export interface ScheduleSource<T extends ScheduledItem = ScheduledItem> {
  /** Every pending (not cancelled, not finished) scheduled turn. */
  pending(): T[];
  /** Moves a periodic item to its next due time. */
  reschedule(id: string, dueAt: number): void;
  /** Marks a one-off (or exhausted periodic) item as done. */
  finish(id: string): void;
}

/**
 * Fires scheduled turns when they fall due, with one timer armed for the earliest of them.
 * Start-up fires every overdue item once (a turn missed during downtime fires once), then a
 * periodic item resumes from its next future occurrence.
 */
export class Scheduler<T extends ScheduledItem = ScheduledItem> {
  private timer: TimerHandle | null = null;
  private closed = false;

  constructor(
    private readonly source: ScheduleSource<T>,
    private readonly timers: Timers,
    private readonly fire: (item: T) => void,
  ) {}

  start(): void {
    this.tick();
  }

  /** Call after an item was added or cancelled so the timer follows the earliest due time. */
  changed(): void {
    if (!this.closed) this.arm();
  }

  close(): void {
    this.closed = true;
    if (this.timer) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  private tick(): void {
    if (this.closed) return;
    const now = this.timers.now();
    for (const item of this.source.pending()) {
      if (item.dueAt > now) continue;
      // Move the item on before firing, so a failing fire can never make it fire twice.
      const next = nextDueAfter(item, now);
      if (next === null) this.source.finish(item.id);
      else this.source.reschedule(item.id, next);
      try {
        this.fire(item);
      } catch (err) {
        console.error(`scheduler: scheduled turn ${item.id} failed to start: ${(err as Error).message}`);
      }
    }
    this.arm();
  }

  private arm(): void {
    if (this.timer) this.timers.clearTimeout(this.timer);
    this.timer = null;
    let earliest = Infinity;
    for (const item of this.source.pending()) earliest = Math.min(earliest, item.dueAt);
    if (earliest === Infinity) return;
    this.timer = this.timers.setTimeout(() => this.tick(), Math.max(0, earliest - this.timers.now()));
  }
}
