import type { DeskResult, Unsubscribe } from '../../../shared/bridge';
import type { Connectivity } from '../../../shared/bridge/memory';
import type { Logger } from '../../log/logger';
import { watchReach } from '../../api/server-reach';
import { createEventHub } from '../plumbing/event-hub';

/** Failures that mean the server could not be reached (as opposed to it saying no). */
const UNREACHABLE = new Set(['network', 'service_unavailable']);

export function isUnreachable(result: DeskResult<unknown>): boolean {
  return !result.ok && UNREACHABLE.has(result.error.code);
}

export interface ConnectivityTracker {
  current(): Connectivity;
  /** Every API answer tells whether the server is there. */
  note(result: DeskResult<unknown>): void;
  on(listener: (connectivity: Connectivity) => void): Unsubscribe;
  close(): void;
}

/**
 * Online until a call cannot reach the server, or the reach check finds nothing listening there
 * (server-reach.ts, so a quiet app says it is offline within seconds, not at the next call); then offline,
 * probing every `probeMs` until the server answers again, so the app resumes by itself.
 */
export function createConnectivity(options: {
  probe: () => Promise<DeskResult<unknown>>;
  probeMs?: number;
  /** The server's base URL now, whose reach is watched (server-reach.ts). */
  server?: () => string | undefined;
  logger: Logger;
}): ConnectivityTracker {
  const hub = createEventHub<Connectivity>(options.logger, 'connectivity');
  let state: Connectivity = { online: true };
  let timer: NodeJS.Timeout | null = null;
  let probing = false;

  const stopProbing = (): void => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  const set = (next: Connectivity): void => {
    if (next.online === state.online && next.reason === state.reason) return;
    state = next;
    if (next.online) stopProbing();
    else if (!timer) {
      timer = setInterval(() => void probe(), options.probeMs ?? 3000);
      timer.unref?.();
    }
    hub.emit(state);
  };
  const note = (result: DeskResult<unknown>): void => {
    if (result.ok) set({ online: true });
    else if (isUnreachable(result)) {
      set({ online: false, reason: `The server can't be reached (${result.error.message})` });
    }
  };
  const probe = async (): Promise<void> => {
    if (probing) return;
    probing = true;
    try {
      note(await options.probe());
    } finally {
      probing = false;
    }
  };
  const unwatch = options.server
    ? watchReach({
        server: options.server,
        skip: () => !state.online,
        onUnreachable: (origin) =>
          set({ online: false, reason: `The server can't be reached (nothing answers at ${origin})` }),
      })
    : undefined;
  return {
    current: () => state,
    note,
    on(listener) {
      listener(state);
      return hub.on(listener);
    },
    close() {
      stopProbing();
      unwatch?.();
      hub.clear();
    },
  };
}
