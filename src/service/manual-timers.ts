import type { TimerHandle, Timers } from './timers';

/**
 * A clock with timers that only move when told to: tests inject it to cross the 10-minute
 * permission expiry or a schedule's due time instantly. `now()` also satisfies the service's
 * plain clock.
 */
export class ManualTimers implements Timers {
  private current: number;
  private seq = 0;
  private readonly pending = new Map<number, { due: number; fn: () => void }>();

  constructor(start: number | Date = Date.now()) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = ++this.seq;
    this.pending.set(id, { due: this.current + Math.max(0, ms), fn });
    return { __timer: true, id } as unknown as TimerHandle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.pending.delete((handle as unknown as { id: number }).id);
  }

  /** Moves time forward, firing due timers in order (timers they set are honoured too). */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      let next: [number, { due: number; fn: () => void }] | undefined;
      for (const entry of this.pending)
        if (entry[1].due <= target && (!next || entry[1].due < next[1].due)) next = entry;
      if (!next) break;
      this.pending.delete(next[0]);
      this.current = Math.max(this.current, next[1].due);
      next[1].fn();
    }
    this.current = target;
  }

  /** Moves time to an absolute instant (never backwards). */
  set(to: number | Date): void {
    const t = typeof to === 'number' ? to : to.getTime();
    if (t > this.current) this.advance(t - this.current);
  }

  get pendingCount(): number {
    return this.pending.size;
  }
}
