/** The tail of the queue of each key: a promise that settles when the last queued task is done. */
const tails = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every task queued earlier under `key` has finished (in this process), and at once (on the
 * next microtask) when none waits. A failing task does not block the ones after it; its caller sees the
 * failure. The service keeps two writes of one folder apart with it, the app a conversation's sends.
 */
export function exclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}
