import type { ConversationStore } from '../conversations/conversation-store';
import type { ConversationRuntimes } from './conversation-runtimes';

/** A turn in flight when the service is closed: it ends as an error saying so, recorded before the store closes. */
export const SERVICE_STOPPED_MESSAGE =
  'The service stopped while this turn was running, so the turn was interrupted. Send your message again to continue.';

export const SERVICE_RESTARTED_MESSAGE =
  'The service restarted while this turn was running, so the turn was interrupted. Send your message again to continue.';

/**
 * A previous run stopped under these turns, and their agent sessions died with it: they end as
 * errors, and whoever subscribes is told so (a reconnecting client would otherwise wait).
 */
export async function closeInterruptedTurns(
  store: ConversationStore,
  runtimes: ConversationRuntimes,
  now: number,
): Promise<void> {
  for (const row of await store.unfinishedTurns()) {
    await store.setTurnState(row.conversation_id, row.turn_id, 'error', now);
    runtimes.of(row.conversation_id).log.closeLeftover(row.turn_id, SERVICE_RESTARTED_MESSAGE, 'error');
  }
}
