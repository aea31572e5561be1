import { useShallow } from 'zustand/react/shallow';
import type { TurnState } from '../../../shared/api';
import { useTurnStreamStore } from '../../stores/turn-stream-store';
import { isTerminal, openPermissions } from '../../model/turn-reducer';

/** What a conversation's last reply is doing, as the list says it. */
export type ConversationState = TurnState | 'waiting';

export const conversationStateWords: Record<ConversationState, string> = {
  queued: 'Queued',
  running: 'Running',
  waiting: 'Waiting for you',
  done: 'Done',
  error: 'Failed',
  stopped: 'Stopped',
};

/**
 * The conversations whose running reply waits for the person's answer to a permission prompt. The server
 * says only `running` for them; the open prompt is known from each followed stream.
 */
export function useWaitingForPerson(): ReadonlySet<string> {
  const ids = useTurnStreamStore(
    useShallow((s) =>
      Object.entries(s.streams)
        .filter(([, stream]) => {
          const current = stream.currentTurnId ? stream.turns[stream.currentTurnId] : undefined;
          return !!current && !isTerminal(current.state) && openPermissions(stream).length > 0;
        })
        .map(([id]) => id),
    ),
  );
  return new Set(ids);
}

/** The list's state for one conversation: `waiting` wins over the server's `running`. */
export function conversationState(
  state: TurnState | undefined,
  waiting: boolean,
): ConversationState | undefined {
  if (waiting && (state === 'running' || state === 'queued' || state === undefined)) return 'waiting';
  return state;
}
