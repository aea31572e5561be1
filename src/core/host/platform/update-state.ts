import type { UpdateState } from '../../../shared/bridge';

/**
 * The update state machine, free of Electron: what the updater did, what the UI shows, and whether a
 * downloaded update may be installed now (never while a turn runs or a sync writes).
 */
export type UpdateEvent =
  | { type: 'check-started' }
  | { type: 'available'; version: string }
  | { type: 'not-available'; at: number }
  | { type: 'progress'; percent: number }
  | { type: 'downloaded'; version: string; at: number }
  | { type: 'failed'; message: string; at: number };

export type { UpdateState } from '../../../shared/bridge';

export const initialUpdateState: UpdateState = { phase: 'idle' };

/** The next state after an updater event; a check while an update is ready keeps it ready. */
export function nextUpdateState(state: UpdateState, event: UpdateEvent): UpdateState {
  const keep = { ...(state.lastError ? { lastError: state.lastError } : {}) };
  switch (event.type) {
    case 'check-started':
      return state.phase === 'ready' || state.phase === 'downloading'
        ? state
        : { ...keep, phase: 'checking', ...checked(state) };
    case 'available':
      return { ...keep, phase: 'downloading', version: event.version, percent: 0, ...checked(state) };
    case 'not-available':
      return state.phase === 'ready' ? state : { ...keep, phase: 'up-to-date', lastCheckedAt: event.at };
    case 'progress':
      if (state.phase !== 'downloading') return state;
      return { ...state, percent: Math.max(0, Math.min(100, Math.round(event.percent))) };
    case 'downloaded':
      return { ...keep, phase: 'ready', version: event.version, lastCheckedAt: event.at };
    case 'failed': {
      const lastError = { message: event.message, at: event.at };
      // A failed check never hides an update that is already downloaded.
      if (state.phase === 'ready') return { ...state, lastError };
      return { phase: 'failed', lastError, lastCheckedAt: event.at };
    }
  }
}

function checked(state: UpdateState): Pick<UpdateState, 'lastCheckedAt'> {
  return state.lastCheckedAt === undefined ? {} : { lastCheckedAt: state.lastCheckedAt };
}

/** What keeps the app from restarting right now. */
export interface BusyWork {
  turnsRunning: number;
  syncWriting: boolean;
}

export type InstallDecision = { install: true } | { install: false; reason: string };

/** A restart to update happens only when asked, with an update ready, and nothing running. */
export function canInstallNow(state: UpdateState, busy: BusyWork): InstallDecision {
  if (state.phase !== 'ready') return { install: false, reason: 'No update is ready yet.' };
  if (busy.turnsRunning > 0)
    return { install: false, reason: 'A reply is still running. Restart when it has finished.' };
  if (busy.syncWriting)
    return { install: false, reason: 'Sync is writing files. Restart when it has finished.' };
  return { install: true };
}

/** Hours between checks after the one at start. */
export const CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;
