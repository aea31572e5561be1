/**
 * A turn whose end the stream missed (the stream was cut, and the server, without event ids to
 * resume from, now says nothing runs: the SSE client then ends the turn with a `turn_lost` error)
 * is often complete in the conversation's saved messages. Before the loss is passed on, the
 * conversation is read (GET …/conversations/{sessionId}, the spec's own route): when its last turn
 * is that turn and it ended, the part of the reply the stream never delivered arrives as one more
 * `chunk`, and the turn ends as it ended on the server. Only when the messages do not hold it is
 * the loss passed on as it came. Events keep their order: those after a loss wait for its reading.
 */
import { isTerminal, type ConversationPage, type StreamEvent, type TurnState } from '../../../shared/api';

export interface LostTurnRecoveryOptions {
  /** The conversation's last messages, or undefined when they cannot be read. */
  read(): Promise<ConversationPage | undefined>;
  emit(event: StreamEvent): void;
}

/** Returns the stream's event handler: events pass through, a lost turn is looked up first. */
export function recoverLostTurns(options: LostTurnRecoveryOptions): (event: StreamEvent) => void {
  /** Each turn's text as the stream delivered it. */
  const delivered = new Map<string, string>();
  /** A loss being looked up: the events after it (its own `done` included) wait. */
  let lost: { turnId: string; error: StreamEvent; waiting: StreamEvent[] } | undefined;

  const pass = (event: StreamEvent): void => {
    if (event.event === 'chunk' && event.data.turnId) {
      delivered.set(event.data.turnId, (delivered.get(event.data.turnId) ?? '') + event.data.text);
    }
    if (event.event === 'started' || (event.event === 'done' && !('idle' in event.data)))
      trimDelivered(delivered);
    options.emit(event);
  };

  const settle = async (turnId: string): Promise<void> => {
    const saved = await options.read().catch(() => undefined);
    const loss = lost!;
    lost = undefined;
    const reply = savedReply(saved, turnId);
    if (!reply) {
      pass(loss.error);
    } else {
      const shown = delivered.get(turnId) ?? '';
      const tail = reply.text.startsWith(shown) ? reply.text.slice(shown.length) : reply.text;
      if (tail) pass({ event: 'chunk', data: { text: tail, turnId } });
      if (reply.state !== 'done')
        pass({
          event: 'error',
          data: {
            message: `The reply ended ${reply.state === 'stopped' ? 'stopped' : 'with an error'}.`,
            turnId,
          },
        });
    }
    for (const event of loss.waiting) handle(event);
  };

  const handle = (event: StreamEvent): void => {
    if (lost) {
      lost.waiting.push(event);
      return;
    }
    const data = event.data as { code?: unknown; turnId?: unknown };
    if (event.event === 'error' && data.code === 'turn_lost' && typeof data.turnId === 'string') {
      lost = { turnId: data.turnId, error: event, waiting: [] };
      void settle(data.turnId);
      return;
    }
    pass(event);
  };
  return handle;
}

/** The saved reply of `turnId` when the conversation's last turn is that one and it ended. */
function savedReply(
  saved: ConversationPage | undefined,
  turnId: string,
): { text: string; state: TurnState } | undefined {
  // Once the turn has ended, the saved reply is whole.
  const last = saved?.lastTurn;
  if (!saved || !last || last.turnId !== turnId || !isTerminal(last.state)) return undefined;
  const message = saved.messages.at(-1);
  if (!message || message.role !== 'assistant') return undefined;
  return { text: message.content, state: last.state };
}

/** Only the newest few turns' text is kept (a conversation can run for days). */
function trimDelivered(delivered: Map<string, string>): void {
  while (delivered.size > 4) delivered.delete(delivered.keys().next().value!);
}
