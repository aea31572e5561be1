import { dirname, join } from 'node:path';
import type { IndexProgress } from '../../../shared/bridge/memory';
import type { Logger } from '../../log/logger';
import { indexHistory, type HistorySource } from '../../memory/history-indexer';
import { removeMemoryDatabase } from '../../memory/memory-database';
import { TranscriptStore } from '../../memory/transcript-store';
import { TurnRecorder } from '../../memory/turn-recorder';
import { isDiskFull } from '../../../shared/storage/disk-full';
import { memoryDiskFullWords, memorySpaceAgainWords } from '../../../shared/words/disk-full-words';
import { memorySetAsideWords } from '../../../shared/words/set-aside-words';

export interface MemorySettings {
  /** How long a running turn's events wait before they are written together. */
  flushMs?: number;
  /** Background downloads at once. */
  indexConcurrency?: number;
  /** Wait after sign-in before background indexing starts, so it never competes with the first screen. */
  indexDelayMs?: number;
  /** How often indexing runs again while signed in. */
  reindexMs?: number;
  /** How often an offline app checks whether the server is back. */
  probeMs?: number;
}

/** Where a profile's transcripts live: beside its other per-profile data. */
export function memoryFile(dataDir: string, profileId: string): string {
  return join(dataDir, 'profiles', encodeURIComponent(profileId), 'memory', 'transcripts.db');
}

/** The open store of the active profile, its recorder, and its background indexing. */
export class ProfileMemory {
  readonly store: TranscriptStore;
  readonly recorder: TurnRecorder;
  indexing: IndexProgress & { running: boolean } = { done: 0, total: 0, failed: 0, running: false };
  /** Said once, when this run found the store damaged and started a new one. */
  setAside: string | undefined;
  /** The main window's notice of `setAside` was dismissed (Settings → Chat memory still says it this run). */
  setAsideDismissed = false;
  /** Set while writes fail because the store's disk is full: the sentence naming that disk. */
  diskFull: string | undefined;
  private abort: AbortController | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly profileId: string,
    file: string,
    private readonly settings: MemorySettings,
    private readonly logger: Logger,
    /** What the person is told about the store changed (`setAside`, `diskFull`). */
    private readonly changed: () => void = () => {},
  ) {
    this.store = TranscriptStore.open(file, {
      onSetAside: (aside) => {
        this.setAside = memorySetAsideWords(aside);
        logger.error(this.setAside);
      },
    });
    this.recorder = new TurnRecorder(this.store, {
      ...(settings.flushMs ? { flushMs: settings.flushMs } : {}),
      onWrite: (error) => this.noteWrite(error),
    });
  }

  private source: HistorySource | null = null;

  /** Indexes history never downloaded, soon and then now and again, until stopped. */
  startIndexing(source: HistorySource): void {
    this.source = source;
    if (this.timer || this.abort) return;
    this.schedule(this.settings.indexDelayMs ?? 2000);
  }

  /** A list showed conversations whose history is missing here: index them soon, not at the next round. */
  indexSoon(): void {
    if (!this.source || this.abort) return;
    this.schedule(500);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), ms);
    this.timer.unref?.();
  }

  private async run(): Promise<void> {
    this.timer = null;
    const source = this.source;
    if (!source) return;
    const abort = new AbortController();
    this.abort = abort;
    this.indexing = { ...this.indexing, running: true };
    try {
      const progress = await indexHistory(source, this.store, abort.signal, {
        concurrency: this.settings.indexConcurrency ?? 2,
        onProgress: (p) => (this.indexing = { ...p, running: true }),
      });
      this.indexing = { ...progress, running: false };
      this.noteWrite(undefined);
    } catch (error) {
      if (!isDiskFull(error)) this.logger.error('Indexing conversation history failed.', error);
      this.noteWrite(error);
      this.indexing = { ...this.indexing, running: false };
    }
    if (this.abort !== abort || abort.signal.aborted) return;
    this.abort = null;
    this.schedule(this.settings.reindexMs ?? 10 * 60_000);
  }

  /**
   * How a write went (undefined: it succeeded). A full disk is said in words naming it until a write
   * succeeds again; the recorder keeps what it could not write and tries again by itself.
   */
  noteWrite(error: unknown): void {
    if (error !== undefined && !isDiskFull(error)) {
      this.logger.error('A write to the chat memory failed.', error);
      return;
    }
    const full = error !== undefined;
    if (full === (this.diskFull !== undefined)) return;
    this.diskFull = full ? memoryDiskFullWords(this.where) : undefined;
    if (this.diskFull) this.logger.error(this.diskFull);
    else this.logger.info(memorySpaceAgainWords(this.where));
    this.changed();
  }

  private get where(): string {
    return dirname(this.store.file);
  }

  stopIndexing(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort?.abort();
    this.abort = null;
    this.source = null;
    this.indexing = { ...this.indexing, running: false };
  }

  /**
   * Resolves once what the app holds of a conversation (of all, without one) is on disk, so a read of it is
   * current: what the writer thread was given (an opened history, a long reply), then what the recorder held.
   */
  async written(conversationId?: string): Promise<void> {
    const underWay = () =>
      conversationId === undefined
        ? this.store.threadWritesDone()
        : this.store.writesUnderWay(conversationId);
    await underWay();
    this.recorder.flush();
    await underWay();
  }

  /** Resolves once the store's writer thread has closed its connection too (the file is whole then). */
  close(): Promise<void> {
    this.stopIndexing();
    this.recorder.close();
    return this.store.close();
  }

  /** Forgets everything and deletes the files. */
  destroy(): void {
    this.stopIndexing();
    this.recorder.discard();
    this.store.destroy();
  }
}

/** Deletes a profile's store that is not open. */
export function removeProfileMemory(dataDir: string, profileId: string): void {
  removeMemoryDatabase(memoryFile(dataDir, profileId));
}
