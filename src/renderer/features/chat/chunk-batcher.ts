import type { StreamEvent } from '../../model/stream-event';

/**
 * Collects streamed text events and hands them over once per animation frame,
 * so a reply of thousands of chunks re-renders at most once a frame. A change
 * of block type (text -> thought, or any non-text event) and the end of a turn
 * flush at once, so order is kept and a finished turn never waits a frame.
 * DOM-free: the frame scheduler is injected (requestAnimationFrame in the app).
 */
export interface FrameScheduler {
  request(callback: () => void): number;
  cancel(handle: number): void;
}

export interface ChunkBatcher {
  push(event: StreamEvent): void;
  /** Hands over whatever is buffered now. */
  flush(): void;
  /** Drops the pending frame; buffered events are handed over first. */
  dispose(): void;
}

const batched = new Set<StreamEvent['event']>(['chunk', 'thought']);

export function createChunkBatcher(
  deliver: (events: StreamEvent[]) => void,
  scheduler: FrameScheduler,
): ChunkBatcher {
  let buffer: StreamEvent[] = [];
  let frame: number | undefined;

  const flush = () => {
    if (frame !== undefined) {
      scheduler.cancel(frame);
      frame = undefined;
    }
    if (buffer.length === 0) return;
    const events = buffer;
    buffer = [];
    deliver(events);
  };

  return {
    push(event) {
      if (!batched.has(event.event)) {
        // Tools, permissions, errors, done...: keep order and show them now.
        buffer.push(event);
        flush();
        return;
      }
      const last = buffer[buffer.length - 1];
      if (last && last.event !== event.event) flush();
      buffer.push(event);
      frame ??= scheduler.request(() => {
        frame = undefined;
        flush();
      });
    },
    flush,
    dispose() {
      flush();
    },
  };
}
