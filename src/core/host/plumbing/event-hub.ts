import type { Unsubscribe } from '../../../shared/bridge';
import type { Logger } from '../../log/logger';

/**
 * Listeners of one kind of host event. A listener that throws is logged and
 * never stops the others from hearing the event.
 */
export interface EventHub<T> {
  on(listener: (value: T) => void): Unsubscribe;
  emit(value: T): void;
  clear(): void;
}

export function createEventHub<T>(logger: Logger, what: string): EventHub<T> {
  const listeners = new Set<(value: T) => void>();
  return {
    on(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    emit(value) {
      for (const listener of [...listeners]) {
        try {
          listener(value);
        } catch (error) {
          logger.error(`A ${what} listener failed.`, error);
        }
      }
    },
    clear() {
      listeners.clear();
    },
  };
}
