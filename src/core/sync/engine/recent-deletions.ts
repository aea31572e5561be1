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
  /** Per side, each deleted path and when; a path written back to that side since no longer counts. */
  private entries: { at: number; side: DeleteSide; path: string }[] = [];
  private held = false;

  constructor(
    private readonly windowMs = deleteWindowDefaultMs,
    private readonly now: () => number = () => performance.now(),
  ) {}

  record(side: DeleteSide, paths: readonly string[]): void {
    const at = this.now();
    for (const path of paths) this.entries.push({ at, side, path });
  }

  /**
   * Paths written to a side again (a branch switched back, a file saved anew): their deletion was not a loss
   * of that side's files, so switching git branches back and forth is not taken for a folder emptied.
   */
  restored(side: DeleteSide, paths: readonly string[]): void {
    if (paths.length === 0) return;
    const back = new Set(paths);
    this.entries = this.entries.filter((entry) => entry.side !== side || !back.has(entry.path));
  }

  /** The deletions of each side still in the window. */
  counts(): Record<DeleteSide, number> {
    if (!this.held) {
      const since = this.now() - this.windowMs;
      this.entries = this.entries.filter((entry) => entry.at > since);
    }
    const counts = { local: 0, remote: 0 };
    for (const entry of this.entries) counts[entry.side] += 1;
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
