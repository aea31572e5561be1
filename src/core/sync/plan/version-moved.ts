/**
 * A version that moved between the plan and the operation (an edit, a vanished file, a
 * conditional write refused): the path is re-planned at once, never reported as an error.
 */
import { RemoteError } from './remote-side';

/** A version moved between the plan and the operation: the path is re-planned, not failed. */
export class VersionMoved extends Error {}

/** Whether a failed operation means "moved" rather than a fault. */
export function isMoved(error: unknown): boolean {
  if (error instanceof VersionMoved) return true;
  if (error instanceof RemoteError && error.status === 412) return true;
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}
