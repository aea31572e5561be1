/**
 * What every bridge method answers. Rules every carrier keeps:
 * - every method is async and never rejects: it resolves to a `DeskResult`,
 *   whose failure is a value `{ code, message }` with a plain sentence;
 * - every `on*` method takes its listener last and returns an `Unsubscribe`;
 * - everything crossing the bridge is plain JSON (no classes, no functions
 *   except listeners), so the same contract runs over IPC and a WebSocket.
 */

export type Unsubscribe = () => void;

/**
 * A failure that crossed the bridge. `code` is stable for programs (an API
 * `error` such as `agente_no_acp`, or one of ours such as `signed_out`);
 * `message` is a plain sentence for people. `status` is the HTTP status when
 * the failure came from the API; `retryAfterSeconds` when the server said so.
 */
export interface DeskError {
  code: string;
  message: string;
  status?: number;
  retryAfterSeconds?: number;
  /** With `agente_no_acp`: the engine that has no machine of its own (the API's `motor`). */
  engine?: string;
}

export type DeskResult<T> = { ok: true; value: T } | { ok: false; error: DeskError };

/** Codes the host itself produces (API error codes pass through unchanged). */
export const deskErrorCodes = {
  /** No profile is active, or the person is not signed in. */
  signedOut: 'signed_out',
  /** The refresh token was refused (`invalid_grant`): sign in again. */
  sessionExpired: 'session_expired',
  /** A sign-in is already running for this profile. */
  signInInProgress: 'sign_in_in_progress',
  signInCancelled: 'sign_in_cancelled',
  signInTimedOut: 'sign_in_timed_out',
  /** The browser came back with `error=` (e.g. access_denied). */
  signInRefused: 'sign_in_refused',
  /** The callback's `state` did not match. */
  signInStateMismatch: 'sign_in_state_mismatch',
  /** The server could not be reached. */
  network: 'network',
  /** The server answered something the contract does not allow. */
  badResponse: 'bad_response',
  /** The call's arguments were refused before leaving the host. */
  invalidArgument: 'invalid_argument',
  unknownProfile: 'unknown_profile',
  /** The embedded local service could not start. */
  serviceUnavailable: 'service_unavailable',
  /** The bridge carrier itself failed (socket closed, IPC sender refused). */
  bridgeUnavailable: 'bridge_unavailable',
  unknownMethod: 'unknown_method',
  /** This host cannot do that (e.g. a folder picker in browser mode). */
  notAvailable: 'not_available',
  /** Not now: work is running (a reply, a sync write) that this would interrupt. */
  busy: 'busy',
  /** The agent has no sync folder yet. */
  syncNotSetUp: 'sync_not_set_up',
  /** Sync could not start or run the action; the message says why. */
  syncFailed: 'sync_failed',
  /** The OS could not open the folder or file. */
  openFailed: 'open_failed',
  internal: 'internal',
} as const;
