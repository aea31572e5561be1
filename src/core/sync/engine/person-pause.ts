import type { SyncStatus } from '../../../shared/bridge';

/** The status of a folder the person paused. */
export const PAUSED = { state: 'paused', message: 'Sync is paused.' } as const satisfies Partial<SyncStatus>;

/**
 * `status` with `change` applied. While the person's pause holds, a pass that was already running
 * finishes its files, but the state its end reports does not undo the pause; a mass-delete pause
 * found by that pass is a pause already, with its own words, and a closed engine is stopped.
 */
export function applyStatus(status: SyncStatus, change: Partial<SyncStatus>, paused: boolean): SyncStatus {
  const held =
    paused && change.state !== undefined && change.state !== 'paused' && change.state !== 'stopped';
  return { ...status, ...change, ...(held ? PAUSED : {}) };
}
