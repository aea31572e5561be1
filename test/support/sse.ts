import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** One received SSE event, with its JSON payload decoded. */
export interface ReceivedEvent {
  id: string | undefined;
  event: string;
  data: Record<string, unknown>;
}

/**
 * A real SSE subscription over fetch (the API needs an Authorization header, which EventSource
 * cannot send), parsed with eventsource-parser. Events accumulate in `events`; `next` and
 * `waitFor` read them in order from a cursor, so a test can assert the exact sequence.
 */
export class EventStreamReader {
  readonly events: ReceivedEvent[] = [];
  readonly comments: string[] = [];
  status = 0;
  headers = new Headers();
  private cursor = 0;
  private readonly controller = new AbortController();
  private waiters: (() => void)[] = [];
  private ended = false;
  private failure: Error | null = null;

  /** Resolves once the response headers arrived. */
  readonly ready: Promise<void>;

  constructor(url: string, token: string, options: { lastEventId?: string } = {}) {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' };
    if (options.lastEventId) headers['Last-Event-ID'] = options.lastEventId;
    this.ready = fetch(url, { headers, signal: this.controller.signal }).then((res) => {
      this.status = res.status;
      this.headers = res.headers;
      if (!res.body) {
        this.finish(null);
        return;
      }
      void this.pump(res.body);
    });
    this.ready.catch((err: Error) => this.finish(err));
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const parser = createParser({
      onEvent: (message: EventSourceMessage) => {
        this.events.push({
          id: message.id,
          event: message.event ?? 'message',
          data: message.data === '' ? {} : (JSON.parse(message.data) as Record<string, unknown>),
        });
        this.notify();
      },
      onComment: (comment) => {
        this.comments.push(comment);
        this.notify();
      },
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body) parser.feed(decoder.decode(chunk, { stream: true }));
      this.finish(null);
    } catch (err) {
      this.finish(this.controller.signal.aborted ? null : (err as Error));
    }
  }

  private notify(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  private finish(err: Error | null): void {
    this.ended = true;
    this.failure ??= err;
    this.notify();
  }

  /** Waits until `check` returns a value, re-checking whenever something arrives. */
  async until<T>(check: () => T | undefined, timeoutMs = 45_000, what = 'condition'): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value !== undefined) return value;
      if (this.ended) throw this.failure ?? new Error(`stream ended before ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `timed out waiting for ${what}; got ${JSON.stringify(this.events.map((e) => e.event))}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next event after the cursor (optionally the next one matching), moving the cursor past it. */
  next(match?: (e: ReceivedEvent) => boolean, timeoutMs?: number): Promise<ReceivedEvent> {
    return this.until(
      () => {
        for (let i = this.cursor; i < this.events.length; i++) {
          const e = this.events[i]!;
          if (!match || match(e)) {
            this.cursor = i + 1;
            return e;
          }
        }
        return undefined;
      },
      timeoutMs,
      'next event',
    );
  }

  /** Waits for the next event named `name` (and matching `match`), returning it. */
  nextNamed(name: string, match?: (data: Record<string, unknown>) => boolean, timeoutMs?: number) {
    return this.next((e) => e.event === name && (!match || match(e.data)), timeoutMs);
  }

  /** Every event from the cursor up to and including `done {turnId}` of that turn. */
  async untilDone(turnId: string, timeoutMs?: number): Promise<ReceivedEvent[]> {
    const start = this.cursor;
    await this.nextNamed('done', (d) => d.turnId === turnId, timeoutMs);
    return this.events.slice(start, this.cursor);
  }

  /** Waits for at least `n` heartbeat comments. */
  heartbeats(n: number, timeoutMs?: number): Promise<number> {
    return this.until(
      () => (this.comments.length >= n ? this.comments.length : undefined),
      timeoutMs,
      'heartbeats',
    );
  }

  get lastEventId(): string | undefined {
    return this.events.at(-1)?.id;
  }

  close(): void {
    this.controller.abort();
  }
}

/** Opens an event stream and waits for its response headers. */
export async function openEvents(url: string, token: string, options?: { lastEventId?: string }) {
  const reader = new EventStreamReader(url, token, options);
  await reader.ready;
  return reader;
}
