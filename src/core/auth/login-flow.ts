import { createHash, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { err } from '../common/result';
import type { Result } from '../common/result';
import type { Logger } from '../log/logger';
import { silentLogger } from '../log/logger';
import { startLoopbackListener } from './loopback-listener';
import type { DonePages, LoopbackListener, ReceivedCallback } from './loopback-listener';
import {
  buildAuthorizationUrl,
  checkAuthorizationEndpoint,
  checkCallbackParameters,
  createPkce,
  createState,
  exchangeCode,
} from './pkce';
import type { AuthErrorCode, OAuthClientConfig, TokenSet } from './pkce';

/**
 * One RFC 8252 sign-in: fresh PKCE verifier and state, a loopback listener, the system
 * browser (opened by the host), a constant-time state check, the code exchanged at once,
 * and the browser sent to a static done page. The authorize page is loaded once first, so a wrong
 * address fails at once. Times out after 5 minutes; cancellable.
 */

export type LoginErrorCode =
  | AuthErrorCode
  | 'access_denied'
  | 'authorization_error'
  | 'state_mismatch'
  | 'invalid_callback'
  | 'browser_failed'
  /** The authorize page itself failed (wrong address, server down): said before the browser opens. */
  | 'authorize_failed'
  | 'listener_failed'
  | 'timeout';

export interface LoginError {
  code: LoginErrorCode;
  /** A plain sentence for the person. */
  message: string;
}

export interface LoginOptions extends OAuthClientConfig {
  scopes: readonly string[];
  /**
   * Shows the authorize URL to the person: `shell.openExternal` in Electron, the page's own
   * window in browser mode, print-and-open in the CLI.
   */
  openBrowser(url: string): void | Promise<void>;
  /** The profile's registered loopback ports, tried before an ephemeral one. */
  registeredPorts?: readonly number[];
  callbackPath?: string;
  /** The done pages' HTML; read from `resourcesDir` (or the repo's resources/) when absent. */
  pages?: DonePages;
  resourcesDir?: string;
  /** Defaults to 5 minutes. */
  timeoutMs?: number;
  signal?: AbortSignal;
  logger?: Logger;
}

export interface LoginAttempt {
  /** Tokens on success, or a LoginError with a plain sentence. Never rejects. */
  readonly result: Promise<Result<TokenSet, LoginError>>;
  /** Resolves when the loopback listener and all its connections are closed. */
  readonly closed: Promise<void>;
  cancel(): void;
}

export const LOGIN_TIMEOUT_MS = 5 * 60 * 1000;

const AUTHORIZATION_ERRORS: Record<string, string> = {
  access_denied: 'You declined access.',
  invalid_scope: 'The service did not accept the permissions AgentDesk asked for.',
  unauthorized_client: "This app isn't allowed to sign in to this service.",
  invalid_request: 'The service rejected the sign-in request.',
  unsupported_response_type: 'The service rejected the sign-in request.',
  server_error: 'The service had a problem during sign-in. Please try again.',
  temporarily_unavailable: 'The service is busy. Please try signing in again in a moment.',
};

/** Compares two state values in constant time (hashing first makes the lengths equal). */
export function sameState(expected: string, received: string | null): boolean {
  if (received === null) return false;
  const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(expected), digest(received));
}

/** The one static page the browser lands on after the callback, filled in for success or failure. */
const doneTemplateName = 'sign-in-done.html';

function findResourcesDir(): string {
  // Works from src/core/auth in development and from a bundled out/<program>/ file alike.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    if (existsSync(join(dir, 'resources', doneTemplateName))) return join(dir, 'resources');
    dir = dirname(dir);
  }
  throw new Error(`resources/${doneTemplateName} was not found; pass resourcesDir or pages.`);
}

/**
 * Reads resources/sign-in-done.html and fills it in twice: the "signed in, you can close this tab"
 * page, and the failure page whose `{{reason}}` the listener fills (escaped) with the plain sentence.
 */
export async function loadDonePages(resourcesDir?: string): Promise<DonePages> {
  const dir = resourcesDir ?? findResourcesDir();
  const template = await readFile(join(dir, doneTemplateName), 'utf8');
  const fill = (parts: Record<'title' | 'mark' | 'heading' | 'message', string>) =>
    template.replace(/\{\{(title|mark|heading|message)\}\}/g, (_, name: keyof typeof parts) => parts[name]);
  return {
    signedIn: fill({
      title: 'Signed in to AgentDesk',
      mark: '&#10003;',
      heading: "You're signed in",
      message: '<p>AgentDesk has your sign-in. You can close this tab and go back to the app.</p>',
    }),
    failed: fill({
      title: 'AgentDesk sign-in did not finish',
      mark: '!',
      heading: "Sign-in didn't finish",
      message:
        '<p id="reason">{{reason}}</p>\n      <p>You can close this tab and try again from AgentDesk.</p>',
    }),
  };
}

class LoginStopped extends Error {
  constructor(readonly loginError: LoginError) {
    super(loginError.message);
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

async function completeCallback(
  options: LoginOptions,
  received: ReceivedCallback,
  expectedState: string,
  verifier: string,
  redirectUri: string,
  signal: AbortSignal,
): Promise<Result<TokenSet, LoginError>> {
  const { params } = received;
  // State first: an `error=` from a stranger must not be believed either.
  if (!sameState(expectedState, params.get('state'))) {
    return err({
      code: 'state_mismatch',
      message:
        "This sign-in response didn't come from the sign-in AgentDesk started, so it was ignored. Please try again.",
    });
  }
  const checked = checkCallbackParameters(options, params);
  if (!checked.ok) {
    const { error, description } = checked.error;
    const known = AUTHORIZATION_ERRORS[error];
    if (error === 'invalid_response') {
      return err({
        code: 'invalid_callback',
        message: 'The browser came back with an incomplete sign-in response.',
      });
    }
    return err({
      code: error === 'access_denied' ? 'access_denied' : 'authorization_error',
      message: known ?? description ?? `Sign-in failed (${error}).`,
    });
  }
  if (!checked.value.get('code')) {
    return err({ code: 'invalid_callback', message: 'The browser came back without a sign-in code.' });
  }
  const exchanged = await exchangeCode(options, { callback: checked.value, redirectUri, verifier, signal });
  return exchanged.ok ? exchanged : err(exchanged.error);
}

/** Starts a sign-in and returns at once; `result` settles when it finishes, fails, times out or is cancelled. */
export function startLogin(options: LoginOptions): LoginAttempt {
  const logger = options.logger ?? silentLogger;
  const controller = new AbortController();
  const stop = (error: LoginError): void => controller.abort(new LoginStopped(error));
  const timeoutMs = options.timeoutMs ?? LOGIN_TIMEOUT_MS;
  const timer = setTimeout(
    () =>
      stop({
        code: 'timeout',
        message: 'Sign-in timed out because the browser did not come back. Please try again.',
      }),
    timeoutMs,
  );
  const onOuterAbort = (): void => stop({ code: 'cancelled', message: 'Sign-in was cancelled.' });
  if (options.signal?.aborted) onOuterAbort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  const run = async (): Promise<Result<TokenSet, LoginError>> => {
    let listener: LoopbackListener | undefined;
    let received: ReceivedCallback | undefined;
    try {
      const pages = options.pages ?? (await loadDonePages(options.resourcesDir));
      const { verifier, challenge } = await createPkce();
      const state = createState();
      try {
        listener = await startLoopbackListener({
          pages,
          expectedState: state,
          ...(options.registeredPorts ? { ports: options.registeredPorts } : {}),
          ...(options.callbackPath ? { callbackPath: options.callbackPath } : {}),
        });
      } catch (error) {
        return err({
          code: 'listener_failed',
          message: `AgentDesk could not listen for the browser on this computer (${(error as Error).message}).`,
        });
      }
      listener.closed.then(resolveClosed, resolveClosed);
      const url = buildAuthorizationUrl(options, {
        redirectUri: listener.redirectUri,
        scopes: options.scopes,
        state,
        challenge,
      });
      const reachable = await checkAuthorizationEndpoint(options, url, controller.signal);
      if (controller.signal.aborted) throw controller.signal.reason;
      if (!reachable.ok) {
        throw new LoginStopped({ code: 'authorize_failed', message: reachable.error.message });
      }
      logger.info(`Waiting for the browser on ${listener.redirectUri}`);
      // Opening the browser may resolve late (or, in tests, only after the redirect): wait for the
      // callback meanwhile, and only let a failure to open end the sign-in.
      const browserFailed = Promise.resolve()
        .then(() => options.openBrowser(url.href))
        .then(
          () => new Promise<never>(() => {}),
          (error: unknown) => {
            throw new LoginStopped({
              code: 'browser_failed',
              message: `AgentDesk could not open the browser (${(error as Error).message}).`,
            });
          },
        );
      const waiting = Promise.race([listener.callback, browserFailed]);
      // After a cancel or timeout nobody awaits this race; its later rejection is expected, not an error.
      waiting.catch(() => undefined);
      received = await untilAborted(waiting, controller.signal);
      const result = await completeCallback(
        options,
        received,
        state,
        verifier,
        listener.redirectUri,
        controller.signal,
      );
      if (controller.signal.aborted) throw controller.signal.reason;
      received.finish(result.ok ? { ok: true } : { ok: false, reason: result.error.message });
      logger.info(result.ok ? 'Signed in.' : `Sign-in failed: ${result.error.message}`);
      return result;
    } catch (error) {
      const loginError: LoginError =
        error instanceof LoginStopped
          ? error.loginError
          : { code: 'cancelled', message: `Sign-in stopped unexpectedly (${(error as Error).message}).` };
      received?.finish({ ok: false, reason: loginError.message });
      if (!received) await listener?.close();
      logger.warn(`Sign-in failed: ${loginError.message}`);
      return err(loginError);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onOuterAbort);
      if (!listener) resolveClosed();
    }
  };

  return { result: run(), closed, cancel: onOuterAbort };
}

/** Signs in and resolves with tokens or a LoginError. */
export function login(options: LoginOptions): Promise<Result<TokenSet, LoginError>> {
  return startLogin(options).result;
}
