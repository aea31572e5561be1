/** The tail of the queue of each key: a promise that settles when the last queued task is done. */
const tails = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every task queued earlier under `key` has finished (in this process), so two writes of the
 * same folder never interleave their renames. A failing task does not block the ones after it.
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

/**
 * Runs `task`, a change of the workspace file at `absolute`, after every change of that file queued earlier:
 * no other write (the agent's, over ACP or the API) lands between a change's If-Match check and its rename.
 */
export function changingFile<T>(absolute: string, task: () => Promise<T>): Promise<T> {
  return exclusive(`workspace file:${absolute}`, task);
}
