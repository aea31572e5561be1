/**
 * Carries out a sync plan with bounded concurrency: deletes first, then transfers, each action
 * run by action-runner.ts. A failure leaves that path's base untouched so the next cycle tries
 * again; a path whose version moved under the plan is "moved": re-planned at once, never an error.
 */
import pLimit from 'p-limit';
import { runAction, type ActionDeps } from './action-runner';
import { withRetry, defaultRetry } from './retry';
import type { SyncAction } from '../plan/sync-plan-types';
import { isMoved } from '../plan/version-moved';
import { isDiskFull } from '../../../shared/storage/disk-full';

/** How many actions of a plan run at once, unless the engine's options say otherwise. */
export const defaultConcurrency = 8;

export interface ExecutorDeps extends ActionDeps {
  /** How many actions run at once (default: defaultConcurrency). */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface ActionFailure {
  path: string;
  message: string;
  /** Its disk was full (ENOSPC, EDQUOT, SQLITE_FULL): the cycle pauses and tries again (disk-full-pause.ts). */
  diskFull?: true;
}

export interface ExecutionResult {
  done: number;
  failures: ActionFailure[];
  conflicts: string[];
  /** Paths whose version moved during the cycle (an edit, a vanished file): re-plan them. */
  moved: string[];
}

/** Deletes go first so a file can become a folder (or back) within one cycle. */
const phaseOf = (action: SyncAction): number =>
  action.type === 'delete-remote' || action.type === 'delete-local' ? 0 : 1;

export async function executePlan(
  actions: readonly SyncAction[],
  deps: ExecutorDeps,
): Promise<ExecutionResult> {
  const limit = pLimit(deps.concurrency ?? defaultConcurrency);
  const result: ExecutionResult = { done: 0, failures: [], conflicts: [], moved: [] };
  const total = actions.length;
  deps.onProgress?.(0, total);
  for (const phase of [0, 1]) {
    const inPhase = actions.filter((action) => phaseOf(action) === phase);
    await Promise.all(
      inPhase.map((action) =>
        limit(async () => {
          try {
            const conflicted = await runAction(action, deps);
            if (conflicted) result.conflicts.push(action.type === 'forget-base' ? action.key : action.path);
          } catch (error) {
            const path = action.type === 'forget-base' ? action.key : action.path;
            if (isMoved(error)) result.moved.push(path);
            else
              result.failures.push({
                path,
                message: (error as Error).message,
                ...(isDiskFull(error) ? { diskFull: true as const } : {}),
              });
          }
          result.done += 1;
          deps.onProgress?.(result.done, total);
        }),
      ),
    );
  }
  await withRetry(() => deps.remote.flush(), deps.retry ?? defaultRetry).catch((error: Error) =>
    result.failures.push({ path: '', message: error.message }),
  );
  return result;
}
