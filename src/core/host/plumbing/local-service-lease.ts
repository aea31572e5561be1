/**
 * One "this computer" service per data folder. The app, `npm run web` and every `agentdesk` command start it
 * in their own process; two of them on one folder would each run its agents, its schedules and its restart
 * recovery, which ends the other's running turns as "the service restarted". So the first takes the
 * folder's lock (common/owner-lock.ts) and writes its address into it; a later one joins that service over
 * HTTP, signed in with the account's saved tokens (the keychain is the person's, shared by the app and the
 * CLI). The passwordless sign-in stays with the process that started the service (docs/security.md), so a
 * later one with no saved sign-in runs a guest service beside it instead (ServiceOptions.guest). When the
 * first one ends, a joined one takes the folder over (joined-service.ts), else a guest does (guest-service.ts).
 */
import { join } from 'node:path';
import { apiRoutes, routePath } from '../../../shared/api';
import {
  lockOwner,
  OwnerBusyError,
  processWords,
  takeOwnerLock,
  type LockOwner,
} from '../../common/owner-lock';
import type { FetchLike } from '../../common/result';
import type { EmbeddedService, ServiceHolder } from './embedded-service';
import { guestService } from './guest-service';
import { joinedService } from './joined-service';

export interface LeaseOptions {
  /** "This computer"'s service data folder; the lock is `service.lock` in it. */
  dataDir: string;
  /** This program in words, told to a later one: "the AgentDesk app", "the agentdesk command". */
  who: string;
  /** Starts the service in this process (EmbeddedStart: the address to take over; as a guest). */
  start(how: { port?: number; guest?: boolean }): Promise<EmbeddedService>;
  /**
   * Whether this program has a sign-in to use on another program's service (the keychain's tokens). Without
   * one it runs a guest service beside that one instead (ServiceOptions.guest), signing in by itself.
   */
  canJoin?: (() => Promise<boolean>) | undefined;
  fetch?: FetchLike | undefined;
  /** This program took over the service of a program that ended (joined-service.ts, guest-service.ts). */
  onTakeOver?: (() => void) | undefined;
  log?: ((message: string) => void) | undefined;
  /** How long a later process waits for the holder to answer (it may be starting). */
  waitMs?: number;
}

const WAIT_MS = 20_000;
const LOOK_EVERY_MS = 100;

export async function startOrJoinLocalService(options: LeaseOptions): Promise<EmbeddedService> {
  const file = join(options.dataDir, 'service.lock');
  const until = Date.now() + (options.waitMs ?? WAIT_MS);
  for (;;) {
    let owner: LockOwner;
    try {
      return await startHolding(file, options);
    } catch (error) {
      if (!(error instanceof OwnerBusyError)) throw error;
      owner = error.owner;
    }
    if (options.canJoin && !(await options.canJoin())) {
      const guest = await options.start({ guest: true });
      return guestService(file, guest, options);
    }
    const joined = await joinHolder(file, owner, until, options);
    if (joined) return joined;
    // Its process ended (or another took its place) while we waited: look again.
    if (lockOwner(file)?.pid !== owner.pid) continue;
    throw new Error(
      `AgentDesk's data on this computer is in use by ${owner.who} (${processWords(owner)}), which does not answer. Close it, then try again.`,
    );
  }
}

/** Why a program that joined another's service cannot sign in by itself, in plain words. */
export function heldByWords(holder: ServiceHolder): string {
  return `AgentDesk on this computer is already running in ${holder.who} (process ${holder.pid}), and only that program can sign you in without a password. Use it, or close it and try again here.`;
}

/** Takes the lock and starts the service (on `port` when given); OwnerBusyError when a live process holds it. */
export async function startHolding(
  file: string,
  options: LeaseOptions,
  port?: number,
): Promise<EmbeddedService> {
  const lock = takeOwnerLock(file, options.who);
  let started: EmbeddedService;
  try {
    started = await options.start(port ? { port } : {});
    lock.tell(started.url);
  } catch (error) {
    lock.release();
    throw error;
  }
  const signInApp = started.signInApp?.bind(started);
  return {
    url: started.url,
    ...(signInApp ? { signInApp } : {}),
    async close() {
      try {
        await started.close();
      } finally {
        lock.release();
      }
    },
  };
}

/** The holder's service once it answers; undefined when its process ends or `until` passes first. */
async function joinHolder(
  file: string,
  seen: LockOwner,
  until: number,
  options: LeaseOptions,
): Promise<EmbeddedService | undefined> {
  for (;;) {
    const owner = lockOwner(file);
    if (!owner || owner.pid !== seen.pid) return undefined;
    if (owner.url && (await answers(owner.url, options.fetch ?? fetch))) {
      return joinedService(file, { ...owner, url: owner.url }, (port) => startHolding(file, options, port), {
        onTakeOver: options.onTakeOver,
        log: options.log,
      });
    }
    if (Date.now() > until) return undefined;
    await new Promise((done) => setTimeout(done, LOOK_EVERY_MS));
  }
}

/** Any HTTP answer: the service is up (a refused or hung connection is not). */
async function answers(url: string, fetchFn: FetchLike): Promise<boolean> {
  try {
    const response = await fetchFn(`${url}${routePath(apiRoutes.openapi)}`, {
      method: 'HEAD',
      signal: AbortSignal.timeout(2_000),
    });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}
