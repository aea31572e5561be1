import type { FrameScheduler } from './chunk-batcher';

/**
 * The app's scheduler: one callback per painted frame, run in a task of its own just after the
 * frame rather than inside it. React's render of the new text then never shares a task with the
 * browser's style, layout and paint of the frame, so neither grows into a long task. A hidden
 * window gets no frames, so a timer stands in after 250 ms and text still arrives.
 */
export const animationFrameScheduler: FrameScheduler = (() => {
  let next = 1;
  const pending = new Map<number, { raf: number; timer: ReturnType<typeof setTimeout> }>();
  const afterFrame = new MessageChannel();
  const queued: (() => void)[] = [];
  afterFrame.port1.onmessage = () => queued.shift()?.();
  return {
    request(callback) {
      const handle = next++;
      const run = () => {
        const entry = pending.get(handle);
        if (!entry) return;
        cancelAnimationFrame(entry.raf);
        clearTimeout(entry.timer);
        // Still pending (cancellable) until the task runs: a flush meanwhile delivers at once.
        queued.push(() => {
          if (!pending.delete(handle)) return;
          callback();
        });
        afterFrame.port2.postMessage(0);
      };
      pending.set(handle, { raf: requestAnimationFrame(run), timer: setTimeout(run, 250) });
      return handle;
    },
    cancel(handle) {
      const entry = pending.get(handle);
      if (!entry) return;
      pending.delete(handle);
      cancelAnimationFrame(entry.raf);
      clearTimeout(entry.timer);
    },
  };
})();
