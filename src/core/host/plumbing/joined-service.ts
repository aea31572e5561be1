/**
 * "This computer"'s service as a program that joined it holds it (local-service-lease.ts): the holder's
 * address, and a look at the folder's lock every second. When the holder ends (the app quits), this program
 * takes the folder over and starts the service on the same address, so its connection, tokens and open
 * streams go on as after a restart of the service; from then on it also signs in without a password itself.
 */
import { lockOwner, OwnerBusyError, type LockOwner } from '../../common/owner-lock';
import type { EmbeddedService } from './embedded-service';
import { LOCK_LOOK_MS, lookEvery } from './look-every';

export function joinedService(
  file: string,
  holder: LockOwner & { url: string },
  startHere: (port: number) => Promise<EmbeddedService>,
  hooks: { onTakeOver?: (() => void) | undefined; log?: ((message: string) => void) | undefined },
): EmbeddedService {
  let seen = holder;
  let own: EmbeddedService | undefined;
  let closed = false;
  const port = Number(new URL(holder.url).port);

  const look = async (): Promise<void> => {
    const now = lockOwner(file);
    if (now?.pid === seen.pid && now.url === seen.url) return;
    // Another joined program took it over on the same address: it holds it now.
    if (now?.url === holder.url) {
      seen = { ...now, url: holder.url };
      return;
    }
    if (now) return; // still starting, or elsewhere: looked at again in a second
    try {
      own = await startHere(port);
    } catch (error) {
      if (error instanceof OwnerBusyError) return; // another took it first: looked at again
      hooks.log?.(`Could not take over AgentDesk's service on ${holder.url}: ${(error as Error).message}`);
      stop();
      return;
    }
    stop();
    if (closed) {
      await own.close();
      return;
    }
    hooks.onTakeOver?.();
  };

  const stop = lookEvery(LOCK_LOOK_MS, look);

  return {
    url: holder.url,
    get heldBy() {
      return own ? undefined : { who: seen.who, pid: seen.pid };
    },
    get signInApp() {
      return own?.signInApp?.bind(own);
    },
    async close() {
      closed = true;
      stop();
      // The holder stops its own service; this program stops the one it took over.
      await own?.close();
    },
  };
}
