import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { LoggedEvent } from './event-log';

/** The heartbeat line: an SSE comment, which parsers skip (shared/api/events.ts). */
export const HEARTBEAT_LINE = ': ping\n\n';

/**
 * One interval for every open stream: each heartbeat tick writes the comment line to all of
 * them, so 2,000 streams cost one timer, not 2,000.
 */
export class HeartbeatHub {
  private readonly beats = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly intervalMs: number) {}

  add(beat: () => void): () => void {
    this.beats.add(beat);
    if (!this.timer) {
      this.timer = setInterval(() => {
        for (const b of [...this.beats]) b();
      }, this.intervalMs);
      this.timer.unref();
    }
    return () => {
      this.beats.delete(beat);
      if (this.beats.size === 0) this.stop();
    };
  }

  get size(): number {
    return this.beats.size;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

export interface Subscribable {
  subscribe(
    listener: (event: LoggedEvent) => void,
    lastEventId: string | null,
  ): { replayed: LoggedEvent[]; close(): void } | Promise<{ replayed: LoggedEvent[]; close(): void }>;
}

/**
 * Streams a conversation's events: first the replay (the current turn so far, or what came
 * after `Last-Event-ID`), then live events, each with its `id:`; a heartbeat comment on the
 * hub's interval. The subscription is released when the client goes away.
 */
export function eventStreamResponse(c: Context, source: Subscribable, hub: HeartbeatHub): Response {
  const lastEventId = c.req.header('Last-Event-ID') ?? null;
  c.header('X-Accel-Buffering', 'no');
  c.header('Cache-Control', 'no-store');
  return streamSSE(c, async (stream) => {
    const queue: LoggedEvent[] = [];
    let wake: (() => void) | null = null;
    let open = true;
    const subscription = await source.subscribe((event) => {
      queue.push(event);
      wake?.();
    }, lastEventId);
    queue.unshift(...subscription.replayed);
    const stopBeat = hub.add(() => {
      if (open) void stream.write(HEARTBEAT_LINE).catch(() => {});
    });
    stream.onAbort(() => {
      open = false;
      wake?.();
    });
    try {
      while (open && !stream.aborted && !stream.closed) {
        let event: LoggedEvent | undefined;
        while (open && (event = queue.shift())) {
          await stream.writeSSE({ id: event.id, event: event.event, data: JSON.stringify(event.data) });
        }
        if (!open) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    } finally {
      open = false;
      stopBeat();
      subscription.close();
    }
  });
}
