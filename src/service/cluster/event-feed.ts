import pg from 'pg';
import { postgresConnectTimeoutMs } from '../db/database';
import {
  ConversationEventLog,
  parseEventId,
  type EventListener,
  type LoggedEvent,
  type TurnLog,
} from '../turns/event-log';

/**
 * Conversation events shared by every service process on one PostgreSQL (an outbox table and LISTEN/NOTIFY).
 *
 * The process that runs a turn logs its events as it always did (turns/event-log.ts assigns the ids); the
 * mirror appends each to `cluster_events` in order, one batch per round trip, and the same statement
 * notifies `agentdesk_events` with the conversation's id. Any process serves a conversation's stream from
 * the table: the replay is the last two turns read back into an event log (same ids, same Last-Event-ID
 * rules), then every row after the last one it sent, fetched when a notification wakes it. A stream never
 * misses a row: it remembers the sequence number of the last row it got and always asks for what follows.
 */

const CHANNEL = 'agentdesk_events';

interface Pending {
  conversationId: string;
  event: LoggedEvent;
}

interface Reader {
  listener: EventListener;
  /** Sequence of the last row it got; null until its replay is read. */
  lastSeq: number | null;
}

interface Row {
  seq: number;
  turn_id: string;
  event_id: string;
  event: string;
  data: Record<string, unknown> | string;
}

/** How long close() keeps trying to write the pending events before it goes on without them. */
const CLOSE_GRACE_MS = 5_000;

export class EventFeed {
  private pending: Pending[] = [];
  private writing: Promise<void> | null = null;
  /** Events logged, and events written (or dropped as unwritable), since the start: `flushed` waits on them. */
  private logged = 0;
  private settled = 0;
  private readonly waiting: { mark: number; resolve: () => void }[] = [];
  private readonly readers = new Map<string, Set<Reader>>();
  private readonly pulling = new Map<string, { again: boolean }>();
  private listenClient: pg.Client | null = null;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly connectionString: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Starts listening for other processes' events. */
  async start(): Promise<void> {
    await this.listen();
  }

  // Writing

  /** The mirror of one conversation's event log: persists its events in the order they are logged. */
  mirror(conversationId: string): EventListener {
    return (event) => {
      this.pending.push({ conversationId, event });
      this.logged++;
      this.writing ??= this.writeAll();
    };
  }

  /**
   * Resolves once every event logged so far is in the table (events logged later, as another conversation
   * streams on, are not waited for). A feed that closed with events unwritten resolves too.
   */
  async flushed(): Promise<void> {
    const mark = this.logged;
    if (this.settled >= mark || this.closed) return;
    await new Promise<void>((resolve) => this.waiting.push({ mark, resolve }));
  }

  /** `count` more events are in the table, or given up: the waits they end are over. */
  private written(count: number): void {
    this.settled += count;
    // Marks only grow, so the waits that are over are the first ones.
    while (this.waiting[0] && (this.waiting[0].mark <= this.settled || this.closed))
      this.waiting.shift()!.resolve();
  }

  private async writeAll(): Promise<void> {
    try {
      while (this.pending.length > 0 && !this.closed) {
        const batch = this.pending.splice(0);
        try {
          await this.insert(batch);
          this.written(batch.length);
        } catch (error) {
          // PostgreSQL refused the data itself (SQLSTATE class 22): trying again would block every stream.
          if (String((error as { code?: unknown }).code ?? '').startsWith('22')) {
            this.log(`cluster: ${batch.length} events dropped (${(error as Error).message})`);
            this.written(batch.length);
            continue;
          }
          // PostgreSQL went away for a moment: keep the order, try again shortly.
          this.log(`cluster: events not written yet (${(error as Error).message})`);
          this.pending.unshift(...batch);
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    } finally {
      this.writing = null;
    }
  }

  private async insert(batch: Pending[]): Promise<void> {
    const rows = batch.map(({ conversationId, event }) => ({
      c: conversationId,
      t: parseEventId(event.id)?.turnId ?? '',
      i: event.id,
      e: event.event,
      // As JSON text inside a jsonb string: jsonb refuses \u0000 and lone surrogates, which a message may hold.
      d: JSON.stringify(event.data),
    }));
    await this.pool.query(
      `WITH ins AS (
         INSERT INTO cluster_events (conversation_id, turn_id, event_id, event, data)
         SELECT r.v->>'c', r.v->>'t', r.v->>'i', r.v->>'e', r.v->'d'
         FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS r(v, n) ORDER BY r.n
         RETURNING conversation_id)
       SELECT pg_notify('${CHANNEL}', c.conversation_id) FROM (SELECT DISTINCT conversation_id FROM ins) AS c`,
      [JSON.stringify(rows)],
    );
  }

  // Reading

  /** A conversation's events: the replay after `lastEventId` (as turns/event-log.ts rules it), then live. */
  async subscribe(
    conversationId: string,
    listener: EventListener,
    lastEventId?: string | null,
  ): Promise<{ replayed: LoggedEvent[]; close(): void }> {
    const reader: Reader = { listener, lastSeq: null };
    let set = this.readers.get(conversationId);
    if (!set) this.readers.set(conversationId, (set = new Set()));
    set.add(reader);
    const close = () => {
      set.delete(reader);
      if (set.size === 0 && this.readers.get(conversationId) === set) this.readers.delete(conversationId);
    };
    try {
      const { rows } = await this.pool.query<Row>(
        `SELECT seq, turn_id, event_id, event, data FROM cluster_events
         WHERE conversation_id = $1 AND turn_id IN (
           SELECT turn_id FROM cluster_events WHERE conversation_id = $1
           GROUP BY turn_id ORDER BY max(seq) DESC LIMIT 2)
         ORDER BY seq`,
        [conversationId],
      );
      reader.lastSeq = rows.length > 0 ? Number(rows.at(-1)!.seq) : 0;
      const replayed = ConversationEventLog.restore(turnsOf(rows)).replay(lastEventId);
      // Rows written while the replay was read come next.
      void this.pull(conversationId);
      return { replayed, close };
    } catch (error) {
      close();
      throw error;
    }
  }

  /** Sends every reader of the conversation the rows it has not had yet; one fetch at a time per conversation. */
  private async pull(conversationId: string): Promise<void> {
    const running = this.pulling.get(conversationId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: true };
    this.pulling.set(conversationId, state);
    try {
      while (state.again && !this.closed) {
        state.again = false;
        const ready = [...(this.readers.get(conversationId) ?? [])].filter((r) => r.lastSeq !== null);
        if (ready.length === 0) break;
        const from = Math.min(...ready.map((r) => r.lastSeq!));
        const { rows } = await this.pool.query<Row>(
          'SELECT seq, turn_id, event_id, event, data FROM cluster_events WHERE conversation_id = $1 AND seq > $2 ORDER BY seq',
          [conversationId, from],
        );
        for (const row of rows) {
          const seq = Number(row.seq);
          const event: LoggedEvent = { id: row.event_id, event: row.event, data: dataOf(row) };
          for (const reader of ready) {
            if (reader.lastSeq! < seq) {
              reader.lastSeq = seq;
              reader.listener(event);
            }
          }
        }
      }
    } catch (error) {
      this.log(`cluster: could not read events (${(error as Error).message})`);
    } finally {
      this.pulling.delete(conversationId);
    }
  }

  /**
   * The last row every stream of this process has had (pruning may drop rows up to it), or null when this
   * process streams nothing. A stream still reading its replay reads only the replay window, never pruned.
   */
  readMark(): number | null {
    const seqs = [...this.readers.values()].flatMap((set) => [...set].map((r) => r.lastSeq ?? Infinity));
    const least = Math.min(...seqs);
    return Number.isFinite(least) ? least : null;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      connectionTimeoutMillis: postgresConnectTimeoutMs,
    });
    client.on('notification', (message) => {
      if (message.payload && this.readers.has(message.payload)) void this.pull(message.payload);
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.listenClient = client;
    client.on('end', () => {
      if (this.closed) return;
      this.listenClient = null;
      this.listenAgain();
    });
  }

  /** Lost the connection: listen again until it works, then catch up on what was written meanwhile. */
  private listenAgain(): void {
    setTimeout(() => {
      if (this.closed) return;
      this.listen().then(
        () => {
          for (const id of this.readers.keys()) void this.pull(id);
        },
        (error: unknown) => {
          this.log(`cluster: cannot listen (${(error as Error).message})`);
          this.listenAgain();
        },
      );
    }, 500).unref();
  }

  /**
   * Writes what is pending, then stops listening. When PostgreSQL stays away the writer would retry for
   * ever: after `graceMs` the close goes on without it, and says how many events were never written.
   */
  async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = await Promise.race([
      this.flushed().then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
    ]);
    clearTimeout(timer);
    this.closed = true;
    this.written(0);
    if (gaveUp)
      this.log(`cluster: closing with ${this.pending.length} events not written (PostgreSQL unreachable)`);
    await this.listenClient?.end().catch(() => undefined);
  }
}

/** An event's data: JSON text in a jsonb string (rows written before that hold the object itself). */
function dataOf(row: Row): Record<string, unknown> {
  return typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data;
}

function turnsOf(rows: Row[]): TurnLog[] {
  const turns: TurnLog[] = [];
  for (const row of rows) {
    let turn = turns.at(-1);
    if (!turn || turn.turnId !== row.turn_id) turns.push((turn = { turnId: row.turn_id, events: [] }));
    turn.events.push({ id: row.event_id, event: row.event, data: dataOf(row) });
  }
  return turns;
}
