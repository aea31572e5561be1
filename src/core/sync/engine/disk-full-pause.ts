/**
 * A sync that meets a full disk (issue 38) pauses instead of failing: it says which disk is full, deletes
 * nothing, keeps its state, and tries again by itself, backing off, until there is space.
 */
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SyncStatus } from '../../../shared/bridge';
import { syncDiskFullWords, syncSpaceAgainWords, type FullDisk } from '../../../shared/words/disk-full-words';
import type { ActionFailure } from '../run/sync-executor';
import type { SyncStateStore } from '../state/sync-state-store';
import { withNotice } from './sync-notices';
import { backoffDelay } from '../../api/retry-after';

/** What of a cycle (sync-cycle.ts's CycleContext) the pause reads and changes. */
interface PausingCycle {
  options: { root: string; store: Pick<SyncStateStore, 'file' | 'conflicts'> };
  status: () => SyncStatus;
  update: (change: Partial<SyncStatus>) => void;
}

/**
 * After a cycle's actions: when some met a full disk, the status says which disk and how many changes wait
 * (state `error` with `diskFull`), and true ends the cycle there; the engine tries again (DiskFullRetry).
 * When none did and the sync was paused so, it says once that there is space again.
 */
export async function sayDiskFull(
  ctx: PausingCycle,
  failures: ActionFailure[],
  skipped: SyncStatus['skipped'],
): Promise<boolean> {
  const waiting = failures.filter((failure) => failure.diskFull).length;
  const was = ctx.status().diskFull;
  if (waiting === 0) {
    if (was) ctx.update({ diskFull: undefined, notices: withNotice(ctx.status(), syncSpaceAgainWords(was)) });
    return false;
  }
  const disk = await whichDiskIsFull(ctx.options.root, ctx.options.store.file);
  ctx.update({
    state: 'error',
    diskFull: { ...disk, since: was?.since ?? Date.now() },
    conflicts: ctx.options.store.conflicts(),
    skipped,
    failures,
    message: syncDiskFullWords(disk, waiting),
  });
  return true;
}

/** Below this much free space a disk counts as the full one. */
const nearlyFullBytes = 1024 * 1024;

/**
 * Which disk refused the write: the sync folder's, or the one holding the sync's own records (the state
 * file and version history, in AgentDesk's data folder). A write's error rarely names its file, so the
 * disks' free space tells; when neither looks full now (a quota, or space freed meanwhile), the folder.
 */
export async function whichDiskIsFull(root: string, stateFile: string): Promise<FullDisk> {
  const folder = { what: 'the sync folder', where: root };
  if (await nearlyFull(root)) return folder;
  const records = dirname(stateFile);
  if (await nearlyFull(records)) return { what: "AgentDesk's data", where: records };
  return folder;
}

async function nearlyFull(path: string): Promise<boolean> {
  const stats = await statfs(path).catch(() => undefined);
  return stats !== undefined && stats.bavail * stats.bsize < nearlyFullBytes;
}

/** About 2 s, 4 s, … up to a minute between tries while the disk stays full (the API's backoff, jittered). */
const firstTryMs = 2000;
const longestWaitMs = 60_000;

/** The tries again of a sync paused on a full disk, after each cycle (unref'd: they never hold a process open). */
export class DiskFullRetry {
  private timer: NodeJS.Timeout | undefined;
  private attempt = 0;

  constructor(private readonly tryAgain: () => void) {}

  /** Runs `cycle`, then follows what it left: `full()` after it. */
  async after<T>(cycle: Promise<T>, full: () => boolean): Promise<T> {
    const result = await cycle;
    this.follow(full());
    return result;
  }

  /** After a cycle: while the disk is full, one more try later (each wait longer); else back to the start. */
  follow(full: boolean): void {
    if (!full) {
      this.stop();
      this.attempt = 0;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.tryAgain();
      },
      backoffDelay(this.attempt, { baseMs: firstTryMs, maxMs: longestWaitMs }),
    );
    this.timer.unref();
    this.attempt += 1;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
