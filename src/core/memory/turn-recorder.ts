import type { AttachmentMeta, RecordedEvent } from '../../shared/bridge/memory';
import type { RewindCut } from './stored-turns';
import type { TranscriptStore, TurnWrite } from './transcript-store';
import { eventIndexOf, foldEvent, newTurnRecord, type TurnRecord } from './turn-record';

/** An event as the host streams it to the renderer: the SSE name, its payload, and its `id:` if stamped. */
export interface ObservedEvent {
  event: string;
  data: unknown;
  id?: string;
}

export interface TurnRecorderOptions {
  /** How long a running turn's changes wait before they are written together. */
  flushMs?: number;
  now?: () => number;
  /** Each write's outcome: undefined when it succeeded, else what it threw (a full disk, say). */
  onWrite?: (error: unknown) => void;
}

interface OpenTurn extends Omit<TurnWrite, 'record'> {
  record: TurnRecord;
  dirty: boolean;
  /** Characters folded in, roughly what one write of the turn costs. */
  size: number;
  /** Handed to the writer thread and not yet written there. */
  onThread?: boolean;
}

/** Each write of a running turn rewrites it, so a long reply is written less often (at most every 5 s). */
const SIZE_PER_STEP = 200_000;
const LONGEST_WAIT_MS = 5000;
/** A write that failed (a full disk) is tried again this much later, with whatever changed meanwhile. */
const RETRY_MS = 5000;
/**
 * A turn with this much text is written by the store's writer thread: copying a 1 MB reply into SQLite took
 * the host's thread 30-70 ms in one go. Below it a write costs the host a few ms, and stays synchronous.
 */
const THREAD_SIZE = 100_000;
/** Forgotten turns remembered at most: a late event comes within seconds of its rewind. */
const FORGOTTEN_KEPT = 1000;

/**
 * Keeps every event the app observes, per conversation and turn, off the hot path: `observe` only
 * folds into memory (O(1) for a chunk); a timer writes the changed turns in one transaction, and a
 * turn's end is written on the next tick. Invariant: an event replayed by a reconnect is folded once.
 */
export class TurnRecorder {
  private readonly open = new Map<string, OpenTurn>();
  private readonly currentTurn = new Map<string, string>();
  /** Turns a rewind forgot: an event of theirs that comes later (their end) must not bring them back. */
  private readonly forgotten = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly flushMs: number;
  private readonly now: () => number;

  constructor(
    private readonly store: TranscriptStore,
    private readonly options: TurnRecorderOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 500;
    this.now = options.now ?? Date.now;
  }

  /** What the person sent with a turn: its text and attachments (names, types, sizes, thumbnails). */
  noteSent(
    agentId: string,
    conversationId: string,
    sent: { turnId: string; content: string; attachments?: AttachmentMeta[] },
  ): void {
    const turn = this.turn(agentId, conversationId, sent.turnId);
    turn.userText = sent.content;
    if (sent.attachments?.length) turn.attachments = sent.attachments;
    this.markDirty(turn, false);
  }

  observe(agentId: string, conversationId: string, observed: ObservedEvent): void {
    const data = isRecord(observed.data) ? observed.data : {};
    const turnId = this.turnIdOf(conversationId, observed, data);
    if (turnId === null || this.forgotten.has(keyOf(conversationId, turnId))) return;
    const turn = this.turn(agentId, conversationId, turnId);
    const index = eventIndexOf(observed.id, turnId);
    // Without stream ids, a `started` means the server replays the turn from its start.
    if (observed.event === 'started' && index === undefined && turn.record.events.length > 0) {
      turn.record.events = [];
    }
    const event: RecordedEvent = { event: observed.event, data };
    if (!foldEvent(turn.record, event, index)) return;
    if (typeof data['text'] === 'string') turn.size += data['text'].length;
    this.markDirty(turn, observed.event === 'done');
  }

  /**
   * Writes every changed turn now, in one transaction (a long reply's by the writer thread); finished turns
   * leave memory once written. A write that fails (a full disk) keeps them all, to be written again a little
   * later; `onWrite` hears how each went.
   */
  flush(): void {
    this.write(false);
  }

  /**
   * `flush`; unless `all`, a turn of a conversation the writer thread is still writing for (an opened
   * history, a long reply: TranscriptStore.writesUnderWay) waits for it and is written right after, and a
   * long reply's turn is handed to that thread. `all` writes everything here and now (the store closes next).
   */
  private write(all: boolean): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch: [string, OpenTurn][] = [];
    const waits = new Set<Promise<void>>();
    for (const [key, turn] of this.open) {
      // Closing, a turn the thread has yet to write is written here: the thread may close before it does.
      if (!turn.dirty && !(all && turn.onThread)) continue;
      const underWay = all ? undefined : this.store.writesUnderWay(turn.conversationId);
      if (underWay) {
        waits.add(underWay);
        continue;
      }
      turn.dirty = false;
      if (!all && turn.size >= THREAD_SIZE) {
        this.writeOnThread(key, turn);
        continue;
      }
      batch.push([key, turn]);
      if (turn.record.state) this.open.delete(key);
    }
    for (const underWay of waits) void underWay.then(() => this.flush());
    if (batch.length === 0) return;
    try {
      this.store.writeTurns(batch.map(([, turn]) => ({ ...turn })));
    } catch (error) {
      for (const [key, turn] of batch) this.keepDirty(key, turn);
      this.retryLater();
      this.report(error);
      return;
    }
    this.report(undefined);
  }

  /** Hands a long reply's turn to the writer thread; it stays here until written (a late event folds into it). */
  private writeOnThread(key: string, turn: OpenTurn): void {
    turn.onThread = true;
    this.store.writeTurnOnThread({ ...turn }).then(
      () => {
        turn.onThread = false;
        if (this.forgotten.has(key)) return this.forgetWritten(turn);
        if (turn.record.state && !turn.dirty && this.open.get(key) === turn) this.open.delete(key);
        this.options.onWrite?.(undefined);
      },
      (error: unknown) => {
        turn.onThread = false;
        if (this.closed || this.forgotten.has(key)) return; // closing wrote it on the host meanwhile; a rewind forgot it
        this.keepDirty(key, turn);
        this.retryLater();
        this.options.onWrite?.(error);
      },
    );
  }

  /** A rewind forgot the turn while the thread was writing it: the row the thread just wrote goes too. */
  private forgetWritten(turn: OpenTurn): void {
    if (this.closed) return;
    try {
      this.store.forgetTurn(turn.conversationId, turn.record.turnId);
      this.options.onWrite?.(undefined);
    } catch (error) {
      this.options.onWrite?.(error);
    }
  }

  private keepDirty(key: string, turn: OpenTurn): void {
    if (!this.open.has(key)) this.open.set(key, turn);
    turn.dirty = true;
  }

  /** A write failed (a full disk): everything pending is tried again a little later. */
  private retryLater(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), RETRY_MS);
    this.timer.unref?.();
  }

  private report(error: unknown): void {
    if (this.options.onWrite) this.options.onWrite(error);
    else if (error !== undefined) throw error;
  }

  /**
   * A rewind forgot the conversation's turns started from `startedAt` (stored-turns.ts): those held here go
   * too, unwritten. A turn that waits for the writer thread's history, or whose end comes after the rewind,
   * would otherwise be written after it, and take the place of the turn that answers the message again.
   */
  forgetFrom(conversationId: string, cut: RewindCut): void {
    const { startedAt } = cut;
    // Those already written and let go: a late or replayed event of one would start a fresh record of its tail.
    for (const turnId of cut.turnIds) this.forgotten.add(keyOf(conversationId, turnId));
    for (const [key, turn] of this.open) {
      if (turn.conversationId !== conversationId || turn.record.startedAt < startedAt) continue;
      this.open.delete(key);
      this.forgotten.add(key);
    }
    for (const oldest of this.forgotten) {
      if (this.forgotten.size <= FORGOTTEN_KEPT) break;
      this.forgotten.delete(oldest);
    }
  }

  /** Forgets what is pending without writing it (the store is being deleted). */
  discard(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.open.clear();
    this.currentTurn.clear();
    this.forgotten.clear();
  }

  /** Writes what is pending, waiting for no history (the store closes next), and stops the timer. */
  close(): void {
    this.closed = true;
    this.write(true);
  }

  private turnIdOf(
    conversationId: string,
    observed: ObservedEvent,
    data: Record<string, unknown>,
  ): string | null {
    if (observed.event === 'done' && data['idle'] === true) return null;
    const named = typeof data['turnId'] === 'string' ? data['turnId'] : undefined;
    const stamped = observed.id?.includes('.')
      ? observed.id.slice(0, observed.id.lastIndexOf('.'))
      : undefined;
    const turnId = named ?? stamped ?? this.currentTurn.get(conversationId) ?? null;
    if (turnId !== null) this.currentTurn.set(conversationId, turnId);
    return turnId;
  }

  private turn(agentId: string, conversationId: string, turnId: string): OpenTurn {
    const key = keyOf(conversationId, turnId);
    let turn = this.open.get(key);
    if (!turn) {
      const record = this.store.loadTurn(conversationId, turnId) ?? newTurnRecord(turnId, this.now());
      turn = { agentId, conversationId, record, dirty: false, size: 0 };
      this.open.set(key, turn);
    }
    return turn;
  }

  private markDirty(turn: OpenTurn, soon: boolean): void {
    turn.dirty = true;
    if (soon) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => this.flush(), 0);
    } else if (!this.timer) {
      const wait = Math.min(LONGEST_WAIT_MS, this.flushMs * (1 + Math.floor(turn.size / SIZE_PER_STEP)));
      this.timer = setTimeout(() => this.flush(), wait);
    }
    this.timer.unref?.();
  }
}

function keyOf(conversationId: string, turnId: string): string {
  return `${conversationId}\u0000${turnId}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
