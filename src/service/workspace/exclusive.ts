import { exclusive } from '../../shared/timing/exclusive';

/**
 * Runs `task`, a change of the workspace file at `absolute`, after every change of that file queued earlier:
 * no other write (the agent's, over ACP or the API) lands between a change's If-Match check and its rename.
 */
export function changingFile<T>(absolute: string, task: () => Promise<T>): Promise<T> {
  return exclusive(`workspace file:${absolute}`, task);
}
