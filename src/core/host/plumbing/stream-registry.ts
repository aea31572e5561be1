import type { EventSubscription } from '../../events/sse-client';

/** The conversation streams the host holds open, so signing out or switching closes every one. */
export interface StreamRegistry {
  add(stream: EventSubscription): void;
  /** Forgets a stream that ended on its own (it is not closed again). */
  delete(stream: EventSubscription): void;
  closeAll(): void;
}

export function createStreamRegistry(): StreamRegistry {
  const streams = new Set<EventSubscription>();
  return {
    add: (stream) => void streams.add(stream),
    delete: (stream) => void streams.delete(stream),
    closeAll() {
      for (const stream of [...streams]) stream.close();
      streams.clear();
    },
  };
}
