import type { StreamEvent } from '../../model/stream-event';

/**
 * Hands streamed text events to the renderer at most once per animation frame, with no wait for the
 * first: text that arrives when nothing was handed over since the last frame goes at once (the reply's
 * first words show in the next paint, not one frame later), and what arrives after it waits for the
 * frame and goes as one batch. So a reply of thousands of chunks re-renders at most once a frame, and
 * a quiet stream's next piece never waits. A change of block type (text -> thought, or any non-text
 * event) and the end of a turn flush at once, so order is kept and a finished turn never waits a frame.
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
  /** Set from a hand-over until the frame after it: text arriving meanwhile waits for that frame. */
  let frame: number | undefined;

  const waitForFrame = () => {
    frame ??= scheduler.request(() => {
      frame = undefined;
      // Text held for this frame goes now, and what comes next waits for the following frame.
      if (buffer.length > 0) flush();
    });
  };

  const flush = () => {
    if (buffer.length === 0) return;
    const events = buffer;
    buffer = [];
    deliver(events);
    waitForFrame();
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
      // Nothing handed over since the last frame: no render to spare, so this one goes at once.
      if (frame === undefined) flush();
    },
    flush,
    dispose() {
      flush();
      if (frame !== undefined) scheduler.cancel(frame);
      frame = undefined;
    },
  };
}
