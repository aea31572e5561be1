/**
 * The per-conversation event log behind `GET .../events`.
 *
 * It keeps the events of the current turn (and of the one before it, so a client that
 * dropped just before a turn boundary still gets that turn's tail) and fans live events out
 * to subscribers.
 *
 * Event ids (our addition to the spec): `<turnId>.<n>`, where n counts from 1 inside a turn.
 * Resuming with `Last-Event-ID: <turnId>.<n>` replays what came after n in that turn and
 * then every later turn still held; an id the log no longer holds replays the current turn
 * from its start (or the idle notice when no turn is open).
 * Invariant: for one subscriber, replay followed by live events never repeats an id and never
 * skips one.
 *
 * A turn that an earlier run of the service left open is closed with `closeLeftover`: its ending
 * (`error`, `done {turnId}`, `done {reposo}`) is replayed to every subscriber until the next turn
 * begins, under ids of their own (`<turnId>~restart.<n>`) that cannot collide with ids the
 * earlier run already gave out.
 */
import type { TurnState } from '../../shared/api';

export interface LoggedEvent {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

export type EventListener = (event: LoggedEvent) => void;

export interface TurnLog {
  turnId: string;
  events: LoggedEvent[];
}

/** Id of the idle notice of a conversation that never ran a turn in this service run. */
export const NEVER_RAN_ID = 'reposo.0';

/** The suffix of the log that closes a turn an earlier run left (its ids cannot collide with that run's). */
const LEFTOVER = '~restart';

export class ConversationEventLog {
  private readonly turns: TurnLog[] = [];
  private readonly listeners = new Set<EventListener>();
  private open = false;
  /** The latest turn is a leftover of an earlier run, closed at start: replay its ending to all. */
  private leftover = false;

  /**
   * `mirror` sees every event as it is logged, in order (several processes on PostgreSQL persist them
   * there, so any process can stream them: cluster/event-feed.ts).
   */
  constructor(private readonly mirror?: EventListener) {}

  /** A log holding turns read back from elsewhere (cluster/event-feed.ts), to replay them. */
  static restore(turns: TurnLog[]): ConversationEventLog {
    const log = new ConversationEventLog();
    log.turns.push(...turns.slice(-2));
    const last = log.turns.at(-1);
    log.leftover = last?.turnId.endsWith(LEFTOVER) ?? false;
    log.open =
      last !== undefined &&
      !log.leftover &&
      !last.events.some((e) => e.event === 'done' && e.data.turnId === last.turnId);
    return log;
  }

  /** Starts a new turn's log; the one before it is kept for resuming across the boundary. */
  beginTurn(turnId: string): void {
    this.leftover = false;
    this.turns.push({ turnId, events: [] });
    while (this.turns.length > 2) this.turns.shift();
    this.open = true;
  }

  /** Whether this log began the turn (it keeps the latest two). */
  holds(turnId: string): boolean {
    return this.turns.some((turn) => turn.turnId === turnId);
  }

  get currentTurnId(): string | null {
    return this.open ? (this.turns.at(-1)?.turnId ?? null) : null;
  }

  /** Appends an event to the latest turn and broadcasts it. */
  append(event: string, data: Record<string, unknown>): LoggedEvent {
    const turn = this.turns.at(-1);
    if (!turn) throw new Error('event-log: append before any turn began');
    const logged: LoggedEvent = { id: `${turn.turnId}.${turn.events.length + 1}`, event, data };
    turn.events.push(logged);
    this.mirror?.(logged);
    for (const listener of [...this.listeners]) listener(logged);
    return logged;
  }

  /**
   * Closes the turn with `done {turnId}` (plus `extra`, e.g. the final `estado`), then
   * `done {reposo:true}` when nothing follows it.
   */
  endTurn(idle: boolean, extra: Record<string, unknown> = {}): void {
    const turn = this.turns.at(-1);
    if (!turn || !this.open) return;
    this.append('done', { turnId: turn.turnId, ...extra });
    if (idle) this.append('done', { reposo: true });
    this.open = false;
  }

  /**
   * Closes a turn an earlier run of the service left open: `error {message}`, then its `done`. Several
   * (a turn and those waiting behind it) are kept together, and only the last says the conversation is idle.
   */
  closeLeftover(turnId: string, message: string, state: Extract<TurnState, 'error' | 'stopped'>): void {
    const before = this.leftover ? this.turns.at(-1) : undefined;
    if (before?.events.at(-1)?.data.reposo === true) before.events.pop();
    const log: TurnLog = { turnId: `${turnId}${LEFTOVER}`, events: [] };
    const add = (event: string, data: Record<string, unknown>) => {
      const logged = { id: `${log.turnId}.${log.events.length + 1}`, event, data };
      log.events.push(logged);
      this.mirror?.(logged);
      for (const listener of [...this.listeners]) listener(logged);
    };
    this.turns.push(log);
    const kept = Math.max(2, this.turns.length - this.turns.findIndex((t) => t.turnId.endsWith(LEFTOVER)));
    while (this.turns.length > kept) this.turns.shift();
    this.open = false;
    this.leftover = true;
    add('error', { message, code: 'service_restarted', turnId });
    add('done', { turnId, estado: state }); // the event log keeps the wire's words: it is replayed as sent
    add('done', { reposo: true });
  }

  /**
   * What a subscriber receives first: the current turn so far, or the rest after Last-Event-ID. The
   * endings of turns an earlier run left go to whoever followed one (its id names it) or names none.
   */
  replay(lastEventId?: string | null): LoggedEvent[] {
    const parsed = lastEventId ? parseEventId(lastEventId) : null;
    const index = parsed ? this.turns.findIndex((t) => t.turnId === parsed.turnId) : -1;
    if (parsed && index !== -1 && parsed.n <= this.turns[index]!.events.length) {
      return this.turns.slice(index).flatMap((t, i) => (i === 0 ? t.events.slice(parsed.n) : t.events));
    }
    if (this.open) return [...this.turns.at(-1)!.events];
    if (this.leftover) {
      const followed = parsed ? this.turns.findIndex((t) => t.turnId === parsed.turnId + LEFTOVER) : -1;
      const first = followed !== -1 ? followed : this.turns.findIndex((t) => t.turnId.endsWith(LEFTOVER));
      return this.turns.slice(first).flatMap((t) => t.events);
    }
    return [this.idleNotice()];
  }

  /** Replays and subscribes in one step, so nothing can slip in between. */
  subscribe(
    listener: EventListener,
    lastEventId?: string | null,
  ): { replayed: LoggedEvent[]; close(): void } {
    const replayed = this.replay(lastEventId);
    this.listeners.add(listener);
    return { replayed, close: () => void this.listeners.delete(listener) };
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  private idleNotice(): LoggedEvent {
    const last = this.turns.at(-1)?.events.at(-1);
    if (last && last.event === 'done' && last.data.reposo === true) return last;
    return { id: NEVER_RAN_ID, event: 'done', data: { reposo: true } };
  }
}

export function parseEventId(id: string): { turnId: string; n: number } | null {
  const dot = id.lastIndexOf('.');
  if (dot <= 0) return null;
  const n = Number(id.slice(dot + 1));
  if (!Number.isInteger(n) || n < 0) return null;
  return { turnId: id.slice(0, dot), n };
}
