/** Reports at most one progress figure per interval (and always the last), so the bridge is not flooded. */
export function createProgressThrottle(
  report: (sent: number, total: number) => void,
  intervalMs = 100,
  now: () => number = Date.now,
): ((sent: number, total: number) => void) & { flush(): void } {
  let last = -Infinity;
  let pending: [number, number] | undefined;
  const throttled = (sent: number, total: number) => {
    if (now() - last >= intervalMs || sent >= total) {
      last = now();
      pending = undefined;
      report(sent, total);
    } else {
      pending = [sent, total];
    }
  };
  return Object.assign(throttled, {
    flush() {
      if (pending) report(...pending);
      pending = undefined;
    },
  });
}
