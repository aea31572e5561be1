import type { StreamEvent } from '../../../shared/api';

/** What is running right now, from the events the app's own streams see. */
export interface ActivitySnapshot {
  turnsRunning: number;
  /** Conversations with a permission question waiting for the person. */
  conversationsWaiting: number;
}

export interface ActivityTracker {
  observe(sessionId: string, event: StreamEvent): void;
  snapshot(): ActivitySnapshot;
}

/** Counts running turns and open permission questions per conversation (for the tray and restart to update). */
export function createActivityTracker(): ActivityTracker {
  const running = new Set<string>();
  const waiting = new Map<string, Set<string>>();
  return {
    observe(sessionId, event) {
      if (event.event === 'started') running.add(sessionId);
      if (event.event === 'done' || event.event === 'error') {
        running.delete(sessionId);
        waiting.delete(sessionId);
      }
      if (event.event === 'permission') {
        const open = waiting.get(sessionId) ?? new Set<string>();
        open.add(event.data.id);
        waiting.set(sessionId, open);
      }
      if (event.event === 'permission-resolved') {
        const open = waiting.get(sessionId);
        open?.delete(event.data.id);
        if (open?.size === 0) waiting.delete(sessionId);
      }
    },
    snapshot: () => ({ turnsRunning: running.size, conversationsWaiting: waiting.size }),
  };
}
