/**
 * One synced folder: runs cycles (scan local, list remote, plan, execute,
 * commit) one at a time, triggered by the watcher, by remote hints (a turn's
 * `done`, a `tool` event naming a path) and by timers, and reports its status.
 */
import { mkdir } from 'node:fs/promises';
import type { SyncStatus } from '../../shared/bridge';
import { clearStaleTempFiles } from './atomic-write';
import { settleConflict, type ConflictChoice } from './conflict-resolution';
import { loadIgnoreRules, scanLocal } from './local-scanner';
import { watchLocal, type LocalWatcher } from './local-watcher';
import type { RemoteSide } from './remote-side';
import { ensureRootMarker } from './root-marker';
import { executePlan } from './sync-executor';
import { screenRemotePaths } from './remote-screen';
import { planSync } from './sync-planner';
import type { SyncStateStore } from './sync-state-store';
import { defaultRetry, withRetry, type RetryOptions } from './retry';
import { VersionHistory } from './version-history';
import { restoreKeptVersion } from './version-restore';

export type { ConflictChoice } from './conflict-resolution';

// One status vocabulary for the engine, the host and the renderer: it lives in shared/ (the bridge's sync area).
export type { SyncState, SyncStatus } from '../../shared/bridge';

export interface SyncEngineOptions {
  root: string;
  agentId: string;
  remote: RemoteSide;
  store: SyncStateStore;
  trash: (absolutePath: string) => Promise<void>;
  /** Watch the folder with chokidar; off for one-shot runs. */
  watch?: boolean;
  debounceMs?: number;
  /** Re-list the remote on this period while active (0 = never). */
  remoteIntervalMs?: number;
  /**
   * Look whether the remote moved on this period (a cheap conditional listing, where the remote
   * offers one) and sync when it did; 0 = never. Watch mode uses it so the agent's writes arrive fast.
   */
  remotePollMs?: number;
  /** A changed local file is uploaded only once its size and mtime held still this long. */
  settleMs?: number;
  /** The version history; by default beside the state file. */
  history?: VersionHistory;
  concurrency?: number;
  retry?: RetryOptions;
  now?: () => Date;
  onStatus?: (status: SyncStatus) => void;
}

export class SyncEngine {
  private status: SyncStatus;
  private watcher: LocalWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private poller: NodeJS.Timeout | undefined;
  private readonly history: VersionHistory;
  private readonly ownsHistory: boolean;
  private running: Promise<void> | undefined;
  private again = false;
  private deletesConfirmed = false;
  private closed = false;

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
    };
    if (options.store.setting('paused') === 'true') this.status.state = 'paused';
  }

  get current(): SyncStatus {
    return this.status;
  }

  /** Clears crash leftovers, starts watching, and runs a first cycle. */
  async start(): Promise<SyncStatus> {
    await clearStaleTempFiles(this.options.root).catch(() => 0);
    // A first sync creates its folder; create it before watching, or the watcher would never see it.
    // (A folder that vanished after syncing is not recreated: the root-marker check stops sync.)
    if (this.options.store.baseEntries().size === 0) await mkdir(this.options.root, { recursive: true });
    if (this.options.watch) {
      this.watcher = watchLocal({
        root: this.options.root,
        // Editors' saves (write a temp file, rename it over) settle within a few ms; 50 ms gathers
        // them. The settle time (100 ms of stillness before an upload) runs from the file's mtime,
        // so the scan and listing happen inside it (npm run bench:sync: save → remote).
        debounceMs: this.options.debounceMs ?? 50,
        onChange: () => void this.syncNow(),
      });
      await this.watcher.ready;
    }
    if (this.options.remoteIntervalMs) {
      this.timer = setInterval(() => void this.syncNow(), this.options.remoteIntervalMs);
      this.timer.unref();
    }
    if (this.options.remotePollMs && this.options.remote.hasChanged)
      this.startPolling(this.options.remotePollMs);
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

  /** One look at a time; a look that finds a change runs a cycle. */
  private startPolling(periodMs: number): void {
    let looking = false;
    this.poller = setInterval(() => {
      if (looking || this.running || this.closed) return;
      looking = true;
      this.options.remote.hasChanged!()
        .then((changed) => (changed ? this.syncNow() : undefined))
        .catch(() => undefined) // a failed look is retried on the next tick; the cycle reports errors
        .finally(() => (looking = false));
    }, periodMs);
    this.poller.unref();
  }

  /** A hint that the remote changed (a turn ended, or a tool touched a path). */
  remoteChanged(): void {
    void this.syncNow();
  }

  /** Runs a cycle now, or once more after the running one. Resolves when the folder is settled. */
  async syncNow(): Promise<SyncStatus> {
    if (this.closed) return this.status;
    if (this.running) {
      this.again = true;
      await this.running;
      return this.status;
    }
    this.running = (async () => {
      // A cycle whose paths moved under it runs again at once (a few times, then it waits for
      // the next trigger, so a file rewritten without pause cannot hold the engine).
      let replans = 0;
      do {
        this.again = false;
        const moved = await this.cycle();
        if (moved && replans < 5) {
          replans += 1;
          this.again = true;
        }
      } while (this.again && !this.closed);
    })();
    try {
      await this.running;
    } finally {
      this.running = undefined;
    }
    return this.status;
  }

  pause(): void {
    this.options.store.setSetting('paused', 'true');
    this.update({ state: 'paused', message: 'Sync is paused.' });
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
    // Never alongside a cycle: both would act on the same path.
    while (this.running) await this.running.catch(() => undefined);
    const conflict = store.conflicts().find((c) => c.key === key);
    if (!conflict) return this.status;
    const outcome = await settleConflict(
      {
        root: this.options.root,
        remote: this.options.remote,
        store,
        trash: this.options.trash,
        expectWrite: (path, fingerprint) => this.watcher?.expectWrite(path, fingerprint),
        retry: this.options.retry,
        now: this.options.now,
        history: this.history,
      },
      conflict,
      choice,
    );
    this.update({ conflicts: store.conflicts() });
    await this.syncNow();
    if (!outcome.resolved) this.update({ message: outcome.message });
    return this.status;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.poller) clearInterval(this.poller);
    await this.watcher?.close();
    await this.running;
    if (this.ownsHistory) this.history.close();
    this.update({ state: 'stopped' });
  }

  /** One cycle; resolves true when some path moved under it and should be planned again. */
  private async cycle(): Promise<boolean> {
    const { store, remote, root, agentId } = this.options;
    // The person's pause holds until resume; a mass-delete pause is re-checked every cycle.
    if (store.setting('paused') === 'true' || this.closed) return false;
    const base = store.baseEntries();
    const marker = await ensureRootMarker(root, agentId, base.size === 0, store.file);
    if (!marker.ok) {
      this.update({ state: 'error', message: marker.message });
      return false;
    }
    this.update({ state: 'scanning', message: undefined, failures: [] });
    let listing;
    try {
      // A listing cut short or unreadable is retried like any transport fault; the base is untouched.
      listing = await withRetry(() => remote.list(), this.options.retry ?? defaultRetry);
      // The remote may learn its limits while listing (e.g. a server without the byte route).
      if (remote.limitation !== this.status.limitation) this.update({ limitation: remote.limitation });
    } catch (error) {
      this.update({
        state: 'error',
        message: `Could not list the agent's files: ${(error as Error).message}`,
      });
      return false;
    }
    // Ignored means outside the sync on both sides: the agent's own .git/ is as safe as the person's.
    const rules = await loadIgnoreRules(root);
    const copies = store.copies();
    const { accepted, refused } = screenRemotePaths(listing, rules, copies);
    listing = accepted;
    const local = await scanLocal(root, base, { rules, copies, accepts: (path) => remote.accepts(path) });
    const conflicts = store.conflicts();
    const plan = planSync({
      base,
      local: local.entries,
      remote: listing,
      conflicts: new Set(conflicts.map((c) => c.key)),
      canDownload: (path) => remote.canRead(path),
      confirmedDeletes: this.deletesConfirmed,
      listedGroups: remote.listedGroups,
    });
    plan.skipped.push(...refused);
    if (plan.abort) {
      this.update({ state: 'error', message: plan.abort, skipped: plan.skipped });
      return false;
    }
    this.deletesConfirmed = false;
    this.update({ state: 'syncing', done: 0, total: plan.actions.length, pendingDeletes: undefined });
    const result = await executePlan(plan.actions, {
      root,
      remote,
      store,
      history: this.history,
      settleMs: this.options.settleMs ?? 100,
      trash: this.options.trash,
      expectWrite: (path, fingerprint) => this.watcher?.expectWrite(path, fingerprint),
      now: this.options.now,
      concurrency: this.options.concurrency,
      retry: this.options.retry,
      onProgress: (done, total) => this.update({ done, total }),
    });
    this.history.prune();
    if (plan.pause) {
      // The guard holds the deletes only; everything else of this cycle went ahead.
      const where = plan.pause.side === 'remote' ? "from the agent's files" : 'from this folder';
      this.update({
        state: 'paused',
        pendingDeletes: plan.pause,
        conflicts: store.conflicts(),
        skipped: plan.skipped,
        failures: result.failures,
        message: `This sync would delete ${plan.pause.deletes} of ${plan.pause.total} files ${where}. Confirm to go ahead; every other change was synced.`,
      });
      return result.moved.length > 0;
    }
    const failed = result.failures.length > 0;
    this.update({
      state: failed ? 'error' : 'idle',
      lastSyncAt: failed ? this.status.lastSyncAt : Date.now(),
      conflicts: store.conflicts(),
      skipped: plan.skipped,
      failures: result.failures,
      message: failed
        ? result.failures.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join('\n')
        : undefined,
    });
    return result.moved.length > 0;
  }

  private update(change: Partial<SyncStatus>): void {
    this.status = { ...this.status, ...change };
    this.options.onStatus?.(this.status);
  }
}
