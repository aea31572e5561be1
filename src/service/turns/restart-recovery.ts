import { isTerminal } from '../../shared/api';
import type { ConversationStore } from '../conversations/conversation-store';
import type { ConversationRuntime, ConversationRuntimes } from './conversation-runtimes';

/** A turn in flight when the service is closed: it ends as an error saying so, recorded before the store closes. */
export const SERVICE_STOPPED_MESSAGE =
  'The service stopped while this turn was running, so the turn was interrupted. Send your message again to continue.';

export const SERVICE_RESTARTED_MESSAGE =
  'The service restarted while this turn was running, so the turn was interrupted. Send your message again to continue.';

/**
 * A previous run stopped under these turns: killed (they are still queued or running, and their agent
 * sessions died with it: they end as errors) or closed (its close ended them and marked them). Either way
 * whoever subscribes is told how they ended, or a client that followed one across the restart would wait.
 *
 * The turns this process runs or ran are its own and go on: at start it has none, but a guest that became the
 * folder's own service (guest-role.ts) does; a conversation with a turn of its own open keeps its stream.
 */
export async function closeInterruptedTurns(
  store: ConversationStore,
  runtimes: ConversationRuntimes,
  now: number,
): Promise<void> {
  for (const row of await store.interruptedTurns()) {
    const rt = runtimes.find(row.conversation_id);
    if (rt && ranHere(rt, row.turn_id)) continue;
    const state = isTerminal(row.state) && row.state !== 'done' ? row.state : 'error';
    if (state !== row.state) await store.setTurnState(row.conversation_id, row.turn_id, state, now);
    await store.noteServiceStop(row.conversation_id, row.turn_id, false);
    if (rt?.current) continue;
    runtimes.of(row.conversation_id).log.closeLeftover(row.turn_id, SERVICE_RESTARTED_MESSAGE, state);
  }
}

/** The turn is (or was, lately) this process's: current, waiting, or in the conversation's log. */
function ranHere(rt: ConversationRuntime, turnId: string): boolean {
  return (
    rt.current?.turnId === turnId || rt.waiting.some((turn) => turn.turnId === turnId) || rt.log.holds(turnId)
  );
}
