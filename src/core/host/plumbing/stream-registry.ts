import type { EventSubscription } from '../../events/sse-client';
import type { ActiveConnection } from './connection';

/** The conversation streams the host holds open, so signing out or switching closes every one. */
export interface StreamRegistry {
  add(stream: EventSubscription): void;
  /** Forgets a stream that ended on its own (it is not closed again). */
  delete(stream: EventSubscription): void;
  closeAll(): void;
  /** Closes every stream when the connection goes or signs out. */
  follow(connection: ActiveConnection): void;
}

export function createStreamRegistry(): StreamRegistry {
  const streams = new Set<EventSubscription>();
  const closeAll = (): void => {
    for (const stream of [...streams]) stream.close();
    streams.clear();
  };
  return {
    add: (stream) => void streams.add(stream),
    delete: (stream) => void streams.delete(stream),
    closeAll,
    follow(connection) {
      connection.on((event) => {
        const signedOut = event.type === 'tokens' && event.event.type === 'signed-out';
        if (event.type === 'dropped' || signedOut) closeAll();
      });
    },
  };
}
