import type { StreamEvent } from '../../../shared/api';
import type { ConversationUpdate, Unsubscribe } from '../../../shared/bridge';
import type { FetchLike } from '../../common/result';
import type { Logger } from '../../log/logger';
import { subscribeEvents, type EventSubscription, type StreamError } from '../../events/sse-client';
import { checkConversationIds } from '../plumbing/argument-checks';
import { deskError } from '../plumbing/call-results';
import { recoverLostTurns } from './lost-turn-recovery';
import { SIGNED_OUT, type ActiveConnection } from '../plumbing/connection';
import type { StreamRegistry } from '../plumbing/stream-registry';

/** Live events of one conversation, with the connection's ups and downs as `connection` updates. */
export interface ConversationEventsOptions {
  connection: ActiveConnection;
  streams: StreamRegistry;
  /** Hears every event the renderer's streams deliver (sync takes its file hints from them). */
  onEvent(agentId: string, event: StreamEvent, sessionId: string): void;
  fetch?: FetchLike | undefined;
  logger: Logger;
}

export type OnConversationEvent = (
  agentId: string,
  sessionId: string,
  listener: (update: ConversationUpdate) => void,
) => Unsubscribe;

export function createConversationEvents(options: ConversationEventsOptions): OnConversationEvent {
  const { connection, streams, logger } = options;
  return (agentId, sessionId, listener) => {
    let active = true;
    let subscription: EventSubscription | undefined;
    const send = (update: ConversationUpdate): void => {
      if (!active) return;
      try {
        listener(update);
      } catch (error) {
        logger.error('A conversation listener failed.', error);
      }
    };
    const invalid = checkConversationIds(agentId, sessionId);
    if (invalid) {
      send({ kind: 'connection', connection: { state: 'closed', error: invalid } });
      return () => {
        active = false;
      };
    }
    void connection.connect().then((connected) => {
      if (!active) return;
      if (!connected.ok || !connected.value.tokens.signedIn) {
        const error = connected.ok ? deskError('signed_out', SIGNED_OUT) : connected.error;
        send({ kind: 'connection', connection: { state: 'closed', error } });
        return;
      }
      const { api, tokens } = connected.value;
      let attempt = 0;
      let lastProblem: StreamError | undefined;
      // A turn whose end the stream missed is read from the saved conversation first.
      const deliver = recoverLostTurns({
        read: async () => {
          const saved = await api.getConversation(agentId, sessionId, { limit: 20 });
          return saved.ok ? saved.value : undefined;
        },
        emit: (event) => send({ kind: 'event', event }),
      });
      subscription = subscribeEvents({
        url: api.eventsUrl(agentId, sessionId),
        auth: tokens,
        logger,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        onEvent: (event) => {
          options.onEvent(agentId, event, sessionId);
          deliver(event);
        },
        onError: (error) => {
          lastProblem = error;
        },
        onState: (state) => {
          if (state === 'open') {
            attempt = 0;
            send({ kind: 'connection', connection: { state: 'open' } });
          } else if (state === 'connecting') {
            send({ kind: 'connection', connection: { state: 'connecting' } });
          } else if (state === 'reconnecting') {
            attempt += 1;
            send({
              kind: 'connection',
              connection: {
                state: 'reconnecting',
                attempt,
                ...(lastProblem ? { reason: lastProblem.message } : {}),
              },
            });
          } else {
            const error = lastProblem?.fatal ? deskError(lastProblem.code, lastProblem.message) : undefined;
            send({ kind: 'connection', connection: { state: 'closed', ...(error ? { error } : {}) } });
            if (subscription) streams.delete(subscription);
          }
        },
      });
      streams.add(subscription);
    });
    return () => {
      if (!active) return;
      active = false;
      if (subscription) {
        streams.delete(subscription);
        subscription.close();
      }
    };
  };
}
