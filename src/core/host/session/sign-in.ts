import type { Scope } from '../../../shared/api';
import type { DeskError, DeskResult, ServiceProfile, SignInProgress } from '../../../shared/bridge';
import type { FetchLike } from '../../common/result';
import type { Logger } from '../../log/logger';
import { startLogin, type LoginError } from '../../auth/login-flow';
import { fail } from '../plumbing/call-results';
import type { ActiveConnection, Connection, ServiceHolder } from '../plumbing/connection';
import { heldByWords } from '../plumbing/local-service-lease';

/** The browser sign-in of the active profile, from starting its service to keeping its tokens. */

export interface SignInSettings {
  scopes: readonly Scope[];
  openBrowser(url: string): void | Promise<void>;
  fetch?: FetchLike | undefined;
  now?: (() => number) | undefined;
  resourcesDir?: string | undefined;
  signInTimeoutMs?: number | undefined;
  logger: Logger;
}

/** What the sign-in reports back to the session while it runs. */
export interface SignInReport {
  progress(progress: SignInProgress | undefined): void;
  /** Why the person is (still) signed out; undefined when there is nothing to explain. */
  reason(error: DeskError | undefined): void;
  /** Tells every listener the session changed. */
  changed(): void;
  /** Tokens kept: learn who signed in. */
  signedIn(): Promise<void>;
}

const LOGIN_ERROR_CODES: Record<string, string> = {
  cancelled: 'sign_in_cancelled',
  timeout: 'sign_in_timed_out',
  state_mismatch: 'sign_in_state_mismatch',
  access_denied: 'sign_in_refused',
  authorization_error: 'sign_in_refused',
};

function fromLoginError(error: LoginError): DeskError {
  return { code: LOGIN_ERROR_CODES[error.code] ?? error.code, message: error.message };
}

export async function runSignIn(
  profile: ServiceProfile,
  signal: AbortSignal,
  connection: ActiveConnection,
  settings: SignInSettings,
  report: SignInReport,
): Promise<DeskResult<void>> {
  report.reason(undefined);
  report.progress({ phase: profile.kind === 'local' ? 'starting-service' : 'waiting-for-browser' });
  report.changed();
  const connected = await connection.connect();
  if (signal.aborted) {
    report.progress(undefined);
    report.changed();
    return fail('sign_in_cancelled', 'Sign-in was cancelled.');
  }
  if (!connected.ok) {
    report.progress(undefined);
    report.reason(connected.error);
    report.changed();
    return connected;
  }
  const current = connected.value;
  if (current.heldBy) return signInBeside(current.heldBy, connection, report);
  if (current.signInApp)
    return signInAsApp(current, current.signInApp, { signal, connection }, settings, report);
  const attempt = startLogin({
    baseUrl: current.baseUrl,
    clientId: current.profile.clientId,
    scopes: settings.scopes,
    signal,
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
    ...(settings.now ? { now: settings.now } : {}),
    ...(current.profile.kind === 'custom' && current.profile.loopbackPorts
      ? { registeredPorts: current.profile.loopbackPorts }
      : {}),
    ...(settings.resourcesDir ? { resourcesDir: settings.resourcesDir } : {}),
    ...(settings.signInTimeoutMs ? { timeoutMs: settings.signInTimeoutMs } : {}),
    logger: settings.logger,
    openBrowser: async (url) => {
      report.progress({ phase: 'waiting-for-browser', authorizeUrl: url });
      report.changed();
      await settings.openBrowser(url);
    },
  });
  const result = await attempt.result;
  await attempt.closed;
  report.progress(undefined);
  if (!result.ok) {
    const error = fromLoginError(result.error);
    // Cancelling is the person's own choice: nothing to explain afterwards.
    report.reason(error.code === 'sign_in_cancelled' ? undefined : error);
    report.changed();
    return { ok: false, error };
  }
  if (connection.current() !== current) {
    report.changed();
    return fail('signed_out', 'The account changed during sign-in. Please sign in again.');
  }
  await current.tokens.signIn(result.value);
  await report.signedIn();
  report.changed();
  return { ok: true, value: undefined };
}

/**
 * "This computer" when its service trusts this app: tokens come straight from the service in memory, no
 * browser and no password (docs/security.md, "The app's own service"). They are kept like any others.
 */
async function signInAsApp(
  current: Connection,
  signInApp: NonNullable<Connection['signInApp']>,
  still: { signal: AbortSignal; connection: ActiveConnection },
  settings: SignInSettings,
  report: SignInReport,
): Promise<DeskResult<void>> {
  const answer = await signInApp(settings.scopes.join(' '));
  report.progress(undefined);
  // The service answers after a wait (its store may be a database server): a cancel or another profile
  // chosen meanwhile stands, and its tokens are not kept.
  if (still.signal.aborted || still.connection.current() !== current) {
    report.changed();
    return still.signal.aborted
      ? fail('sign_in_cancelled', 'Sign-in was cancelled.')
      : fail('signed_out', 'The account changed during sign-in. Please sign in again.');
  }
  if (!answer.ok) {
    settings.logger.warn(`The local service refused the app's own sign-in (${answer.reason}).`);
    const error = { code: 'sign_in_refused', message: 'AgentDesk could not sign in to its own service.' };
    report.reason(error);
    report.changed();
    return { ok: false, error };
  }
  const now = settings.now?.() ?? Date.now();
  await current.tokens.signIn({
    accessToken: answer.tokens.access_token,
    refreshToken: answer.tokens.refresh_token,
    expiresAt: now + answer.tokens.expires_in * 1000,
    scope: answer.tokens.scope.split(' ').filter(Boolean),
  });
  await report.signedIn();
  report.changed();
  return { ok: true, value: undefined };
}

/**
 * "This computer" whose service another program runs (plumbing/local-service-lease.ts): the account's tokens
 * are read again from the keychain, where that program keeps them once it has signed in; without them this
 * program cannot sign in by itself, and says why.
 */
async function signInBeside(
  holder: ServiceHolder,
  connection: ActiveConnection,
  report: SignInReport,
): Promise<DeskResult<void>> {
  connection.drop();
  const again = await connection.connect();
  report.progress(undefined);
  if (again.ok && again.value.tokens.signedIn) {
    await report.signedIn();
    report.changed();
    return { ok: true, value: undefined };
  }
  const error = { code: 'service_in_use', message: heldByWords(holder) };
  report.reason(error);
  report.changed();
  return { ok: false, error };
}
