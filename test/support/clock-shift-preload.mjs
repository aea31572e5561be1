/**
 * Test-only preload (`NODE_OPTIONS=--import …/clock-shift-preload.mjs`) that stands in for a system clock step:
 * the tests cannot step this machine's real clock. A real step moves only the wall clock (CLOCK_REALTIME:
 * `Date.now()`, `new Date()`), while the monotonic clocks (`performance.now()`, `process.hrtime`, and so
 * Node's timers) go on as before; so does this, by adding to Date the offset in milliseconds that the test
 * writes to $AGENTDESK_CLOCK_SHIFT_FILE. The file is read again at most every 10 ms of monotonic time,
 * so a jump the test writes is seen by every process within 10 ms, with no sleep. File mtimes the kernel stamps
 * are not shifted: a test sets them with utimes, as a real step would have dated them.
 */
import { readFileSync } from 'node:fs';

const file = process.env.AGENTDESK_CLOCK_SHIFT_FILE;
if (file) {
  const RealDate = Date;
  const realNow = Date.now;
  let offset = 0;
  let readAt = Number.NEGATIVE_INFINITY;
  const shift = () => {
    const t = performance.now();
    if (t - readAt >= 10) {
      readAt = t;
      try {
        offset = Number(readFileSync(file, 'utf8').trim()) || 0;
      } catch {
        offset = 0;
      }
    }
    return offset;
  };
  const now = () => realNow() + shift();
  // `Date()` called plainly gives a string; `new Date()` the shifted instant; with arguments, as ever.
  function ShiftedDate(...args) {
    if (!new.target) return new RealDate(now()).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [now()] : args, new.target);
  }
  Object.setPrototypeOf(ShiftedDate, RealDate);
  ShiftedDate.prototype = RealDate.prototype;
  ShiftedDate.now = now;
  globalThis.Date = ShiftedDate;
}
