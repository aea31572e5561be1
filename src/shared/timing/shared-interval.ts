/**
 * One interval shared by every subscriber, running only while there is one (a server's reach watch, the
 * service's clock-jump watch) and never holding a process open. `begin` runs each time it starts (after the
 * last subscriber left, the next starts it afresh) and gives the tick, which reads the subscribers of now;
 * `end` runs when the last one leaves (to let go of what the ticks kept).
 */
export function sharedInterval<T>(
  ms: number,
  begin: () => (subscribers: ReadonlySet<T>) => void,
  end?: () => void,
): (subscriber: T) => () => void {
  const subscribers = new Set<T>();
  let timer: NodeJS.Timeout | undefined;
  return (subscriber) => {
    subscribers.add(subscriber);
    if (!timer) {
      const tick = begin();
      timer = setInterval(() => tick(subscribers), ms);
      timer.unref();
    }
    return () => {
      subscribers.delete(subscriber);
      if (subscribers.size > 0 || !timer) return;
      clearInterval(timer);
      timer = undefined;
      end?.();
    };
  };
}
