/**
 * One synced folder: starts its watcher, timers and poll, asks its passes (pass-queue.ts runs them one at a
 * time: full cycles at the start, on timers and remote hints, the agent's side, the paths the watcher names),
 * settles conflicts, pauses and resumes, and reports its status.
 */
import { mkdir } from 'node:fs/promises';
import type { SyncStatus } from '../../../shared/bridge';
import { clearStaleTempFiles } from '../local/atomic-write';
import { settleConflict, type ConflictChoice } from '../run/conflict-resolution';
import { watchLocal, type LocalWatcher } from '../local/local-watcher';
import { pollRemote, type PollBackOff, type RemotePoller } from './remote-poller';
import { ResolveRequests } from '../state/resolve-requests';
import { resolveDepsOf, runCycle, type CycleContext, type CycleOptions } from './sync-cycle';
import { syncPaths } from './path-sync';
import { LookMarks, syncRemoteChanges } from './remote-pass';
import { answerRequestsEvery } from './request-answers';
import { PassQueue } from './pass-queue';
import { RecentDeletions } from './recent-deletions';
import { DiskFullRetry } from './disk-full-pause';
import { setAsideNotices } from './sync-notices';
import { VersionHistory } from '../history/version-history';
import { restoreKeptVersion } from '../history/version-restore';
import { watchReach } from '../../api/server-reach';
import { serverUnreachableWords } from '../../../shared/words/unreachable-words';
import { applyStatus, PAUSED } from './person-pause';

export type { ConflictChoice } from '../run/conflict-resolution';

// One status vocabulary for the engine, the host and the renderer: it lives in shared/ (the bridge's sync area).
export type { SyncState, SyncStatus } from '../../../shared/bridge';

export interface SyncEngineOptions extends CycleOptions {
  /** Watch the folder (folder-watch.ts: one watch per folder); off for one-shot runs. */
  watch?: boolean;
  debounceMs?: number;
  /** Re-list the remote on this period while active (0 = never). */
  remoteIntervalMs?: number;
  /** Look whether the remote moved (a cheap conditional listing) on this period, and sync when it did; 0 = never. */
  remotePollMs?: number;
  /** The looks space out while the agent is idle (remote-poller.ts); `false`: a fixed period. */
  remotePollIdle?: PollBackOff | false;
  /** How long a carried-out delete counts toward the mass-delete guard (recent-deletions.ts). */
  deleteWindowMs?: number;
  /** The version history; by default beside the state file. */
  history?: VersionHistory;
  onStatus?: (status: SyncStatus) => void;
}

export class SyncEngine {
  private status: SyncStatus;
  private watcher: LocalWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private poller: RemotePoller | undefined;
  private stopReachWatch: (() => void) | undefined;
  private stopAnswering: (() => void) | undefined;
  private readonly history: VersionHistory;
  private readonly ownsHistory: boolean;
  private readonly queue: PassQueue;
  private deletesConfirmed = false;
  private readonly deletions: RecentDeletions;
  private readonly diskRetry = new DiskFullRetry(() => void (this.closed || this.syncNow()));
  private closed = false;
  /** The poll's looks, marked for the remote pass that follows one (remote-pass.ts). */
  private readonly looks: LookMarks;

  constructor(private readonly options: SyncEngineOptions) {
    this.ownsHistory = options.history === undefined;
    this.history = options.history ?? new VersionHistory(options.store.file, { db: options.store.database });
    this.status = {
      state: 'idle',
      root: options.root,
      done: 0,
      total: 0,
      conflicts: options.store.conflicts(),
      skipped: [],
      failures: [],
      ...(options.remote.limitation ? { limitation: options.remote.limitation } : {}),
      ...setAsideNotices(options.store),
    };
    if (this.paused()) this.status.state = 'paused';
    this.looks = new LookMarks(options);
    this.deletions = new RecentDeletions(options.deleteWindowMs);
    this.queue = new PassQueue({
      full: () => this.cycle(),
      remote: () => syncRemoteChanges(this.context(), this.looks.take()),
      paths: (paths) => syncPaths(this.context(), paths),
      paused: () => this.paused(),
      closed: () => this.closed,
    });
  }

  get current(): SyncStatus {
    return this.status;
  }

  /** Clears crash leftovers, starts watching, and runs a first cycle. */
  async start(): Promise<SyncStatus> {
    await clearStaleTempFiles(this.options.root).catch(() => 0);
    // A first sync creates its folder before watching it (one that vanished later is not: the marker check stops sync).
    if (!this.options.store.hasBase()) await mkdir(this.options.root, { recursive: true });
    if (this.options.watch) {
      this.watcher = watchLocal({
        root: this.options.root,
        // Editors' saves (a temp file renamed over) settle within a few ms: 50 ms gathers them.
        debounceMs: this.options.debounceMs ?? 50,
        onChange: (paths) => {
          this.poller?.quicken(); // the person works: the agent may answer soon
          void (paths ? this.syncPaths(paths) : this.syncNow()); // a watcher error: rescan all
        },
      });
      await this.watcher.ready;
      // While it holds the folder, this process settles the conflicts others are asked to settle.
      this.stopAnswering = answerRequestsEvery(
        new ResolveRequests(this.options.store.database),
        (key, choice) => this.resolveConflict(key, choice),
      );
    }
    if (this.options.remoteIntervalMs) {
      this.timer = setInterval(() => void this.syncNow(), this.options.remoteIntervalMs);
      this.timer.unref();
    }
    const { remotePollMs, remote } = this.options;
    if (remotePollMs && remote.hasChanged) {
      this.poller = pollRemote({
        periodMs: remotePollMs,
        ...(this.options.remotePollIdle !== undefined ? { idle: this.options.remotePollIdle } : {}),
        // Unreachable, every look is a cycle: the first that reaches the server sends what waited.
        hasChanged: () => (this.status.unreachable ? Promise.resolve(true) : this.looks.look()),
        busy: () => this.queue.job.current !== undefined || this.closed,
        onChange: () => this.syncRemote(),
      });
      // The looks space out to 16 s on a quiet folder and a failed request is retried before a cycle gives
      // up: the reach check says within about a second that the server went away, then every look is a cycle.
      const { serverUrl } = remote;
      if (serverUrl)
        this.stopReachWatch = watchReach({
          server: () => serverUrl,
          skip: () => this.closed || this.paused() || !!this.status.unreachable,
          onUnreachable: (server) =>
            this.update({
              state: 'error',
              message: serverUnreachableWords(server),
              unreachable: { server, since: Date.now() },
            }),
        });
    }
    await this.syncNow();
    return this.status;
  }

  /** The version history of this folder (list and restore). */
  get versions(): VersionHistory {
    return this.history;
  }

  /** Puts kept version `id` back in the folder, then syncs it to the agent. */
  async restoreVersion(id: number): Promise<SyncStatus> {
    const version = this.history.version(id);
    if (!version) throw new Error('That version is no longer kept.');
    await restoreKeptVersion(this.options.root, this.history, version);
    return this.syncNow();
  }

  /** A hint that the remote changed (a turn ended, or a tool touched a path). */
  remoteChanged(): void {
    this.looks.forget();
    this.poller?.quicken();
    void this.syncRemote();
  }

  /** The agent is working (a turn runs): look at its side at the full pace again. */
  agentActive(): void {
    this.poller?.quicken();
  }

  /** How long until the next look at the agent's side (0 when the engine does not poll). */
  get pollPeriodMs(): number {
    return this.poller?.currentPeriodMs ?? 0;
  }

  /** Runs a full cycle now, or once more after the running one. Resolves when the folder is settled. */
  async syncNow(): Promise<SyncStatus> {
    this.queue.askFull();
    return this.settle();
  }

  /** Syncs these paths alone (path-sync.ts), or everything when they cannot be decided alone. */
  async syncPaths(paths: readonly string[]): Promise<SyncStatus> {
    this.queue.askPaths(paths);
    return this.settle();
  }

  /** Lists the agent's side and syncs what moved there alone (remote-pass.ts), or everything. */
  async syncRemote(): Promise<SyncStatus> {
    this.queue.askRemote();
    return this.settle();
  }

  private async settle(): Promise<SyncStatus> {
    await this.queue.settle();
    return this.status;
  }

  pause(): void {
    this.options.store.setSetting('paused', 'true');
    this.update(PAUSED);
  }

  async resume(): Promise<SyncStatus> {
    this.options.store.setSetting('paused', undefined);
    this.update({ state: 'idle', message: undefined });
    return this.syncNow();
  }

  /** The person confirmed the pending mass deletion: run it in the next cycle. */
  async confirmDeletes(): Promise<SyncStatus> {
    this.deletesConfirmed = true;
    return this.syncNow();
  }

  /**
   * Settles a flagged conflict. mine: upload the local file. theirs: the remote
   * version replaces the local one. both: the local version is kept under a new
   * name and synced as its own file, the remote version takes the path.
   */
  async resolveConflict(key: string, choice: ConflictChoice): Promise<SyncStatus> {
    const { store } = this.options;
    // Never alongside a cycle: both would act on the same path, so it waits for one and is the running job.
    await this.queue.job.idle();
    const conflict = store.conflicts().find((c) => c.key === key);
    if (!conflict) return this.status;
    const outcome = await this.queue.job.run(
      settleConflict(
        resolveDepsOf({
          options: this.options,
          history: this.history,
          expectWrite: (path, fingerprint) => this.watcher?.expectWrite(path, fingerprint),
        }),
        conflict,
        choice,
      ),
    );
    // Listed until the cycle carrying its outcome ends: else "Up to date" while a kept copy uploads.
    await this.syncNow();
    this.update({ conflicts: store.conflicts(), ...(outcome.resolved ? {} : { message: outcome.message }) });
    return this.status;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.stopAnswering?.();
    this.poller?.stop();
    this.stopReachWatch?.();
    await this.watcher?.close();
    await this.queue.job.current;
    if (this.ownsHistory) this.history.close();
    this.update({ state: 'stopped' });
  }

  /** The person's pause holds until resume; a mass-delete pause is re-checked every cycle. */
  private paused = (): boolean => this.options.store.setting('paused') === 'true';

  /** One cycle; resolves true when some path moved under it and should be planned again. */
  private async cycle(): Promise<boolean> {
    if (this.paused() || this.closed) return false;
    return this.diskRetry.after(runCycle(this.context()), () => this.status.diskFull !== undefined);
  }

  private context(): CycleContext {
    return {
      options: this.options,
      history: this.history,
      status: () => this.status,
      update: (change) => this.update(change),
      expectWrite: (path, fingerprint) => this.watcher?.expectWrite(path, fingerprint),
      deletesConfirmed: () => this.deletesConfirmed,
      consumeConfirmation: () => (this.deletesConfirmed = false),
      deletions: this.deletions,
      paused: this.paused,
    };
  }

  private update(change: Partial<SyncStatus>): void {
    this.status = applyStatus(this.status, change, this.paused());
    this.options.onStatus?.(this.status);
  }
}
