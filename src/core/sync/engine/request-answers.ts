/** The holder of a folder answers the conflict resolutions other processes asked for (resolve-requests.ts). */
import type { SyncStatus } from '../../../shared/bridge';
import type { ConflictChoice } from '../run/conflict-resolution';
import type { ResolveRequests } from '../state/resolve-requests';

/** Settles each pending request with `resolve`, and records whether its conflict is gone. */
export async function answerPending(
  requests: ResolveRequests,
  resolve: (key: string, choice: ConflictChoice) => Promise<SyncStatus>,
): Promise<void> {
  for (const request of requests.pending()) {
    const answer = await resolve(request.key, request.choice).then(
      (status) =>
        status.conflicts.some((c) => c.key === request.key)
          ? { resolved: false, message: status.message ?? 'It is still in conflict.' }
          : { resolved: true },
      (error: unknown) => ({ resolved: false, message: (error as Error).message }),
    );
    requests.answer(request.id, answer);
  }
}

/**
 * While a process holds the folder, it looks every `everyMs` for requests other processes (`agentdesk sync
 * resolve`) left, and settles them one look at a time. Returns the stop.
 */
export function answerRequestsEvery(
  requests: ResolveRequests,
  resolve: (key: string, choice: ConflictChoice) => Promise<SyncStatus>,
  everyMs = 1000,
): () => void {
  let answering = false;
  const timer = setInterval(() => {
    if (answering) return;
    answering = true;
    answerPending(requests, resolve)
      // The state could not be read (another process is writing it): asked again on the next tick.
      .catch(() => undefined)
      .finally(() => (answering = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
