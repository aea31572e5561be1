/**
 * A guest service (ServiceOptions.guest) runs beside the data folder's own service, which another program of
 * this computer runs: it leaves that one's open turns, temp files and scheduled turns alone. When that program
 * ends, the guest's program takes the folder's lock (core/host/plumbing/guest-service.ts) and the guest
 * becomes the folder's own service: each area that held back does its part then (`onOwn`).
 */
export interface GuestRole {
  /** Still beside another program's service (false once this one became the folder's own). */
  readonly beside: boolean;
  /** Runs when this service becomes the folder's own, in the order registered. */
  onOwn(task: () => Promise<void> | void): void;
}

export interface GuestControl extends GuestRole {
  /** The other program ended and this one holds the folder now: the held-back work is done, once. */
  becomeOwn(): Promise<void>;
}

export function createGuestRole(log: (line: string) => void): GuestControl {
  const tasks: (() => Promise<void> | void)[] = [];
  let beside = true;
  let becoming: Promise<void> | undefined;
  return {
    get beside() {
      return beside;
    },
    onOwn(task) {
      tasks.push(task);
    },
    becomeOwn() {
      becoming ??= (async () => {
        beside = false;
        for (const task of tasks) {
          try {
            await task();
          } catch (error) {
            log(`becoming the folder's own service: ${(error as Error).message}`);
          }
        }
      })();
      return becoming;
    },
  };
}
