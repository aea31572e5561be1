/** The embedded local service as the host needs it (main/, browser/ and cli/ start it). */
export interface EmbeddedService {
  url: string;
  close(): Promise<void>;
  /**
   * "This computer"'s passwordless sign-in: the service trusts the app that started it in this process
   * (the app holds the launch secret; docs/security.md). Absent where the program does not offer it.
   */
  signInApp?(scope: string): Promise<AppSignIn>;
  /** A guest's (EmbeddedStart.guest): its program took the folder over, so it does what it left to the other. */
  becomeOwn?(): Promise<void>;
  /** Set when another program on this computer runs the service and this one joined it. */
  heldBy?: ServiceHolder;
}

/** The program that runs "this computer"'s service, when it is not this one. */
export interface ServiceHolder {
  who: string;
  pid: number;
}

/** The token endpoint's answer, handed over in memory; or why the service refused. */
export type AppSignIn =
  | { ok: true; tokens: { access_token: string; refresh_token: string; expires_in: number; scope: string } }
  | { ok: false; reason: string };

/** How a program starts "this computer"'s service (local-service-lease.ts). */
export interface EmbeddedStart {
  dataDir: string;
  /** The address of a service this program takes over from one that ended; else any free one. */
  port?: number;
  /** Beside the folder's own service, run by another program this one could not join (ServiceOptions.guest). */
  guest?: boolean;
}
