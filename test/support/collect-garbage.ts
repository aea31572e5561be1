import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's `gc()`, in a process not started with `--expose-gc` (vitest's workers, a bench under tsx): a full
 * collection on demand, for a test of what is still held or a bench window that starts from a clean heap.
 */
export function garbageCollector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
