import { isTerminal } from '../../shared/api';
import type { ConversationStore } from '../conversations/conversation-store';
import type { ConversationRuntimes } from './conversation-runtimes';

/** A turn in flight when the service is closed: it ends as an error saying so, recorded before the store closes. */
export const SERVICE_STOPPED_MESSAGE =
  'The service stopped while this turn was running, so the turn was interrupted. Send your message again to continue.';

export const SERVICE_RESTARTED_MESSAGE =
  'The service restarted while this turn was running, so the turn was interrupted. Send your message again to continue.';

/**
 * A previous run stopped under these turns: killed (they are still queued or running, and their agent
 * sessions died with it: they end as errors) or closed (its close ended them and marked them). Either way
 * whoever subscribes is told how they ended, or a client that followed one across the restart would wait.
 */
export async function closeInterruptedTurns(
  store: ConversationStore,
  runtimes: ConversationRuntimes,
  now: number,
): Promise<void> {
  for (const row of await store.interruptedTurns()) {
    const state = isTerminal(row.state) && row.state !== 'done' ? row.state : 'error';
    if (state !== row.state) await store.setTurnState(row.conversation_id, row.turn_id, state, now);
    await store.noteServiceStop(row.conversation_id, row.turn_id, false);
    runtimes.of(row.conversation_id).log.closeLeftover(row.turn_id, SERVICE_RESTARTED_MESSAGE, state);
  }
}
