import type { SyncFolderStatus, Unsubscribe } from '../../../shared/bridge';
import type { Logger } from '../../log/logger';
import { createEventHub } from '../plumbing/event-hub';
import { createLatestValueThrottle } from './latest-value-throttle';

/**
 * Sync statuses on their way to `onSyncStatus` listeners: a change the person must see (state,
 * message, conflicts, a pending mass delete, a finished sync, the server away or back, a new note)
 * goes at once; progress within one
 * state is throttled to the latest value every 100 ms.
 */
export interface SyncStatusFeed {
  push(state: SyncFolderStatus): void;
  /** The agent stopped syncing: its next status is news again. */
  forget(agentId: string): void;
  /** Adds a listener and gives it the current statuses first. */
  subscribe(listener: (state: SyncFolderStatus) => void, current: readonly SyncFolderStatus[]): Unsubscribe;
  close(): void;
}

/** Changes that must reach the screen at once; progress within one state may be throttled. */
const signature = (state: SyncFolderStatus): string => {
  const s = state.status;
  return [
    state.root,
    s.state,
    s.message ?? '',
    s.conflicts.length,
    s.pendingDeletes?.deletes ?? '',
    s.lastSyncAt ?? '',
    s.limitation ?? '',
    s.unreachable?.server ?? '',
    s.notices?.at(-1)?.id ?? '',
  ].join('|');
};

export function createSyncStatusFeed(logger: Logger): SyncStatusFeed {
  const hub = createEventHub<SyncFolderStatus>(logger, 'sync status');
  const lastSignature = new Map<string, string>();
  const throttle = createLatestValueThrottle<SyncFolderStatus>(100, (_agentId, state) => hub.emit(state));
  return {
    push(state) {
      const now = signature(state);
      const urgent = lastSignature.get(state.agentId) !== now;
      lastSignature.set(state.agentId, now);
      throttle.push(state.agentId, state, urgent);
    },
    forget: (agentId) => void lastSignature.delete(agentId),
    subscribe(listener, current) {
      const stop = hub.on(listener);
      for (const state of current) {
        try {
          listener(state);
        } catch (error) {
          logger.error('A sync status listener failed.', error);
        }
      }
      return stop;
    },
    close() {
      throttle.close();
      hub.clear();
    },
  };
}
