import { describe, expect, it } from 'vitest';
import { createChunkBatcher, type FrameScheduler } from '../../../src/renderer/features/chat/chunk-batcher';
import type { StreamEvent } from '../../../src/renderer/model/stream-event';

/** A hand-cranked frame clock: frames run only when the test says so. */
function manualFrames(): FrameScheduler & { runFrame(): void; pending(): number } {
  const callbacks = new Map<number, () => void>();
  let next = 1;
  return {
    request(callback) {
      callbacks.set(next, callback);
      return next++;
    },
    cancel(handle) {
      callbacks.delete(handle);
    },
    runFrame() {
      const due = [...callbacks.values()];
      callbacks.clear();
      due.forEach((callback) => callback());
    },
    pending: () => callbacks.size,
  };
}

const chunk = (text: string): StreamEvent => ({ event: 'chunk', data: { text, turnId: 't1' } });
const thought = (text: string): StreamEvent => ({ event: 'thought', data: { text } });

const kinds = (batches: StreamEvent[][]) => batches.map((batch) => batch.map((event) => event.event));

describe('createChunkBatcher', () => {
  it('hands over the first text at once, then the rest of a frame in one batch, once per frame', () => {
    const frames = manualFrames();
    const batches: StreamEvent[][] = [];
    const batcher = createChunkBatcher((events) => batches.push(events), frames);
    for (let i = 0; i < 100; i++) batcher.push(chunk(`c${i} `));
    // The first piece does not wait for a frame; the 99 after it wait for the next one.
    expect(batches).toEqual([[chunk('c0 ')]]);
    expect(frames.pending()).toBe(1);
    frames.runFrame();
    expect(batches).toHaveLength(2);
    expect(batches[1]).toHaveLength(99);
    expect(
      batches
        .flat()
        .map((event) => (event.data as { text: string }).text)
        .join(''),
    ).toBe(Array.from({ length: 100 }, (_, i) => `c${i} `).join(''));
    // A piece right after that frame's batch waits for the following frame: one hand-over per frame.
    batcher.push(chunk('next'));
    expect(batches).toHaveLength(2);
    frames.runFrame();
    expect(batches).toHaveLength(3);
  });

  it('hands a piece over at once when a frame passed with nothing to hand over', () => {
    const frames = manualFrames();
    const batches: StreamEvent[][] = [];
    const batcher = createChunkBatcher((events) => batches.push(events), frames);
    batcher.push(chunk('a'));
    frames.runFrame(); // the frame after `a`, with nothing held
    expect(frames.pending()).toBe(0);
    batcher.push(chunk('b'));
    expect(batches).toEqual([[chunk('a')], [chunk('b')]]);
  });

  it('flushes at once when the block type changes, keeping order', () => {
    const frames = manualFrames();
    const batches: StreamEvent[][] = [];
    const batcher = createChunkBatcher((events) => batches.push(events), frames);
    batcher.push(thought('hmm '));
    batcher.push(thought('yes'));
    batcher.push(chunk('Answer'));
    expect(kinds(batches)).toEqual([['thought'], ['thought']]);
    frames.runFrame();
    expect(kinds(batches)).toEqual([['thought'], ['thought'], ['chunk']]);
  });

  it('delivers a non-text event and everything before it at once (turn end does not wait a frame)', () => {
    const frames = manualFrames();
    const batches: StreamEvent[][] = [];
    const batcher = createChunkBatcher((events) => batches.push(events), frames);
    batcher.push(chunk('a'));
    batcher.push(chunk('b'));
    batcher.push({ event: 'done', data: { turnId: 't1' } });
    expect(kinds(batches)).toEqual([['chunk'], ['chunk', 'done']]);
    frames.runFrame();
    expect(batches).toHaveLength(2);
  });

  it('dispose hands over what is buffered and cancels the frame', () => {
    const frames = manualFrames();
    const batches: StreamEvent[][] = [];
    const batcher = createChunkBatcher((events) => batches.push(events), frames);
    batcher.push(chunk('a'));
    batcher.push(chunk('b'));
    batcher.dispose();
    expect(batches).toEqual([[chunk('a')], [chunk('b')]]);
    expect(frames.pending()).toBe(0);
  });
});
