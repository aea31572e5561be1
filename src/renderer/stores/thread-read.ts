import { historyLoaded, readAsked } from '../model/turn-reducer';
import { useConversationsStore } from './conversations-store';
import { useTurnStreamStore } from './turn-stream-store';

/**
 * Reads a conversation's history and folds its live timeline into it in one step, so no turn shows twice:
 * a turn the history now holds leaves the live timeline (a read after the server came back holds the turn a
 * restart ended, which the stream may tell only afterwards). The last turn is the read's own (the list may
 * already name a later one, which the read does not hold).
 */
export async function readThread(agentId: string, sessionId: string): Promise<void> {
  const asked = readAsked(useTurnStreamStore.getState().streams[sessionId]);
  await useConversationsStore.getState().loadThread(agentId, sessionId, undefined, (lastTurn) => {
    useTurnStreamStore.getState().update(sessionId, (stream) => historyLoaded(stream, lastTurn, asked));
  });
}
