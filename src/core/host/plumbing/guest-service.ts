/**
 * "This computer"'s service as a program that runs a guest beside another program's holds it
 * (local-service-lease.ts: it had no saved sign-in to join that one with), and a look at the folder's lock
 * every second. When the holder ends and no program that had joined it takes its address over (they go
 * first, so their clients keep their address: joined-service.ts), this program takes the folder's lock and
 * its guest becomes the folder's own service (ServiceOptions.guest, becomeOwn): it ends the turns the holder
 * left open, sweeps old temp files and fires the scheduled turns. Otherwise a later program would find the
 * folder free and start a service whose restart recovery ended this one's running turns.
 */
import { lockOwner, OwnerBusyError, takeOwnerLock, type OwnerLock } from '../../common/owner-lock';
import type { EmbeddedService } from './embedded-service';
import { LOCK_LOOK_MS, lookEvery } from './look-every';

/** How long the lock stays free before the guest takes it: a joined program takes it at its next look. */
const JOINED_GO_FIRST_MS = 3 * LOCK_LOOK_MS;

export function guestService(
  file: string,
  guest: EmbeddedService,
  options: {
    who: string;
    onTakeOver?: (() => void) | undefined;
    log?: ((message: string) => void) | undefined;
  },
): EmbeddedService {
  let lock: OwnerLock | undefined;
  let freeSince: number | undefined;
  let closed = false;

  const look = async (): Promise<void> => {
    if (lockOwner(file)) {
      freeSince = undefined;
      return;
    }
    freeSince ??= Date.now();
    if (Date.now() - freeSince < JOINED_GO_FIRST_MS) return;
    try {
      lock = takeOwnerLock(file, options.who);
    } catch (error) {
      if (!(error instanceof OwnerBusyError))
        options.log?.(`Could not take over AgentDesk's data folder: ${(error as Error).message}`);
      freeSince = undefined;
      return;
    }
    stop();
    if (closed) {
      lock.release();
      return;
    }
    lock.tell(guest.url);
    await guest.becomeOwn?.();
    options.onTakeOver?.();
  };

  const stop = lookEvery(LOCK_LOOK_MS, look);

  const signInApp = guest.signInApp?.bind(guest);
  return {
    url: guest.url,
    ...(signInApp ? { signInApp } : {}),
    async close() {
      closed = true;
      stop();
      try {
        await guest.close();
      } finally {
        lock?.release();
      }
    },
  };
}
