/**
 * The deletions a folder's sync carried out lately, per side, over a window of about a minute (issue 38): a
 * script that deletes a folder file by file reaches the sync in watcher-sized batches, each small enough for
 * the mass-delete guard alone; counted with the ones before it, it is paused like `rm -r`. A person deleting
 * a few files now and then stays under it. The clock is monotonic, so a system clock moved back or forward
 * neither keeps old deletions counted for ever nor forgets new ones.
 */
import type { MassDeletePause } from '../plan/sync-plan-types';

type DeleteSide = MassDeletePause['side'];

/** How long a carried-out deletion still counts toward the guard. */
export const deleteWindowDefaultMs = 60_000;

export class RecentDeletions {
  private entries: { at: number; side: DeleteSide; count: number }[] = [];
  private held = false;

  constructor(
    private readonly windowMs = deleteWindowDefaultMs,
    private readonly now: () => number = () => performance.now(),
  ) {}

  record(side: DeleteSide, count: number): void {
    if (count > 0) this.entries.push({ at: this.now(), side, count });
  }

  /** The deletions of each side still in the window. */
  counts(): Record<DeleteSide, number> {
    if (!this.held) {
      const since = this.now() - this.windowMs;
      this.entries = this.entries.filter((entry) => entry.at > since);
    }
    const counts = { local: 0, remote: 0 };
    for (const entry of this.entries) counts[entry.side] += entry.count;
    return counts;
  }

  /** While a pause waits for the person, what led to it stays counted: the window running out is no answer. */
  hold(on: boolean): void {
    this.held = on;
  }

  /** The person confirmed: what was counted is settled. */
  clear(): void {
    this.entries = [];
    this.held = false;
  }
}
