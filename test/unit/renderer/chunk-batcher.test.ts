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

describe('createChunkBatcher', () => {
  it('hands over all chunks of a frame in one batch, once per frame', () => {
    const frames = manualFrames();
    const batches: StreamEvent[][] = [];
    const batcher = createChunkBatcher((events) => batches.push(events), frames);
    for (let i = 0; i < 100; i++) batcher.push(chunk(`c${i} `));
    expect(batches).toEqual([]);
    expect(frames.pending()).toBe(1);
    frames.runFrame();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(100);
    batcher.push(chunk('next'));
    frames.runFrame();
    expect(batches).toHaveLength(2);
  });

  it('flushes at once when the block type changes, keeping order', () => {
    const frames = manualFrames();
    const batches: StreamEvent[][] = [];
    const batcher = createChunkBatcher((events) => batches.push(events), frames);
    batcher.push(thought('hmm '));
    batcher.push(thought('yes'));
    batcher.push(chunk('Answer'));
    expect(batches.map((batch) => batch.map((event) => event.event))).toEqual([['thought', 'thought']]);
    frames.runFrame();
    expect(batches.map((batch) => batch.map((event) => event.event))).toEqual([
      ['thought', 'thought'],
      ['chunk'],
    ]);
  });

  it('delivers a non-text event and everything before it at once (turn end does not wait a frame)', () => {
    const frames = manualFrames();
    const batches: StreamEvent[][] = [];
    const batcher = createChunkBatcher((events) => batches.push(events), frames);
    batcher.push(chunk('a'));
    batcher.push(chunk('b'));
    batcher.push({ event: 'done', data: { turnId: 't1' } });
    expect(batches.map((batch) => batch.map((event) => event.event))).toEqual([['chunk', 'chunk', 'done']]);
    expect(frames.pending()).toBe(0);
  });

  it('dispose hands over what is buffered and cancels the frame', () => {
    const frames = manualFrames();
    const batches: StreamEvent[][] = [];
    const batcher = createChunkBatcher((events) => batches.push(events), frames);
    batcher.push(chunk('a'));
    batcher.dispose();
    expect(batches).toHaveLength(1);
    expect(frames.pending()).toBe(0);
  });
});
