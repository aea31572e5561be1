import type { FrameScheduler } from './chunk-batcher';

/**
 * The app's scheduler: one callback per painted frame. A hidden window gets
 * no frames, so a timer stands in after 250 ms and text still arrives.
 */
export const animationFrameScheduler: FrameScheduler = (() => {
  let next = 1;
  const pending = new Map<number, { raf: number; timer: ReturnType<typeof setTimeout> }>();
  return {
    request(callback) {
      const handle = next++;
      const run = () => {
        const entry = pending.get(handle);
        if (!entry) return;
        pending.delete(handle);
        cancelAnimationFrame(entry.raf);
        clearTimeout(entry.timer);
        callback();
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
