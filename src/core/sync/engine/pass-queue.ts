/**
 * The passes asked of one folder's engine, run one at a time: a full cycle (start, timer, watcher error, a
 * pass that could not decide alone), the agent's side (remote-pass.ts) and the paths the watcher named
 * (path-sync.ts). What is asked while a run goes on joins that run; asking again waits for it.
 */
import type { PathSyncOutcome } from './path-sync';
import { RunningJob } from './running-job';

export interface Passes {
  /** One full cycle; true when some path moved under it and it should be planned again. */
  full(): Promise<boolean>;
  /** The agent's side alone, or 'full' when it cannot be decided alone. */
  remote(): Promise<PathSyncOutcome>;
  /** These paths alone, or 'full'. */
  paths(paths: string[]): Promise<PathSyncOutcome>;
  /** A paused folder only runs full cycles (each re-checks the pause). */
  paused(): boolean;
  closed(): boolean;
}

/** A cycle whose paths moved under it runs again at once this many times, then waits for the next trigger. */
const MAX_REPLANS = 5;

export class PassQueue {
  /** The running job: a run of passes, or a conflict being settled (the engine's). */
  readonly job = new RunningJob();
  private fullWanted = false;
  private remoteWanted = false;
  private readonly named = new Set<string>();

  constructor(private readonly passes: Passes) {}

  askFull(): void {
    this.fullWanted = true;
  }

  askRemote(): void {
    this.remoteWanted = true;
  }

  askPaths(paths: readonly string[]): void {
    for (const path of paths) this.named.add(path);
  }

  /** Runs what is asked until nothing is left; resolves when the folder is settled. */
  async settle(): Promise<void> {
    if (this.passes.closed()) return;
    if (this.job.current) {
      // The running loop takes what was just asked, unless it was already ending.
      await this.job.current;
      if (this.wanted()) await this.settle();
      return;
    }
    await this.job.run(this.runAll());
  }

  private async runAll(): Promise<void> {
    // A rewritten file cannot hold the engine: after a few replans it waits for the next trigger.
    let replans = 0;
    while (!this.passes.closed() && this.wanted()) {
      if (this.fullWanted || this.passes.paused()) {
        this.fullWanted = this.remoteWanted = false;
        this.named.clear(); // the cycle's scan sees them
        const moved = await this.passes.full();
        if (moved && replans < MAX_REPLANS) {
          replans += 1;
          this.fullWanted = true;
        }
      } else if (this.remoteWanted) {
        this.remoteWanted = false;
        if ((await this.passes.remote()) === 'full') this.fullWanted = true;
      } else {
        const paths = [...this.named];
        this.named.clear();
        if ((await this.passes.paths(paths)) === 'full') this.fullWanted = true;
      }
    }
  }

  private wanted(): boolean {
    return this.fullWanted || this.remoteWanted || this.named.size > 0;
  }
}
