import { historyLoaded, readAsked, readMayHoldLive } from '../model/turn-reducer';
import { useConversationsStore } from './conversations-store';
import { useTurnStreamStore } from './turn-stream-store';

/**
 * Reads a conversation's history and folds its live timeline into it in one step, so no turn shows twice:
 * a turn the history now holds leaves the live timeline (a read after the server came back holds the turn a
 * restart ended, which the stream may tell only afterwards). The last turn is the read's own (the list may
 * already name a later one, which the read does not hold).
 * Answers whether the timeline still shows a message sent while the read was on its way, which the read may
 * hold as well (`readMayHoldLive`): the caller reads again once that message is accepted.
 */
export async function readThread(agentId: string, sessionId: string): Promise<boolean> {
  const asked = readAsked(useTurnStreamStore.getState().streams[sessionId]);
  let unsure = false;
  await useConversationsStore.getState().loadThread(agentId, sessionId, undefined, (lastTurn) => {
    useTurnStreamStore.getState().update(sessionId, (stream) => {
      const folded = historyLoaded(stream, lastTurn, asked);
      unsure = readMayHoldLive(folded, asked);
      return folded;
    });
  });
  return unsure;
}
