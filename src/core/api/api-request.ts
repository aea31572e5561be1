import type { z } from 'zod';
import { describeZodError, type RouteSpec } from '../../shared/api';
import type { AccessTokenSource } from '../auth/access-token-source';
import type { Logger } from '../log/logger';
import { silentLogger } from '../log/logger';
import {
  apiErrorFromResponse,
  cancelledError,
  timedOutError,
  isRedirect,
  networkError,
  redirectedError,
  type ApiError,
} from './api-error';
import { err, ok, realSleep, type FetchLike, type Result, type Sleep } from '../common/result';
import { backoffDelay, parseRetryAfter } from './retry-after';
import { fillPath, type PathParams } from './route-path';
import { progressBody, type UploadProgressListener } from './progress-body';
import { byteDeadlineMs } from './deadline';

/**
 * The one request function every section of the client goes through: the route's method and path
 * come from the shared route table; auth, retries, `Retry-After` and error mapping are done here.
 * Retries: 401 refreshes the token once; 429 and 503 wait for Retry-After (capped attempts); network
 * failures are retried only where resending is safe.
 */

export type ApiResult<T> = Result<T, ApiError>;

export interface ApiClientOptions {
  /** e.g. `http://127.0.0.1:8787` */
  baseUrl: string;
  /** The token manager (OAuth) or a static agent token source. */
  auth: AccessTokenSource;
  fetch?: FetchLike;
  sleep?: Sleep;
  /** Tries per request counting the first, for 429/503/network retries. Default 4. */
  maxAttempts?: number;
  /** Longest single wait between tries; a longer Retry-After gives up instead. Default 60 s. */
  maxRetryDelayMs?: number;
  random?: () => number;
  logger?: Logger;
  /**
   * How long one try of a call without a signal of its own may wait for the server, plus 10 s per MB
   * sent. Default 2 minutes. Calls with a signal (sync, uploads, try) keep their own deadlines.
   */
  deadlineMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Extra request headers, e.g. `If-Match` for the service's conditional file writes. */
  headers?: Record<string, string>;
}

/** How to read a successful response. */
export type Reader<T> =
  | { kind: 'json'; schema: z.ZodType<T> }
  /** Bodies the spec does not show: anything 2xx is success. */
  | { kind: 'none' }
  | { kind: 'raw' };

export const json = <T>(schema: z.ZodType<T>): Reader<T> => ({ kind: 'json', schema });
export const none: Reader<void> = { kind: 'none' };
export const raw: Reader<Response> = { kind: 'raw' };

export interface CallSpec<T> {
  read: Reader<T>;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  /** `onProgress` hears how much of the bytes fetch has taken, on every try. */
  bytes?: { data: Uint8Array; contentType: string; onProgress?: UploadProgressListener | undefined };
  accept?: string;
  /** Safe to send again after a network failure; by default every method but POST. */
  resendable?: boolean;
}

export interface ApiRequest {
  readonly baseUrl: string;
  /** Calls one route of the table with its path parameters filled in. */
  call<T, R extends RouteSpec>(
    route: R,
    params: PathParams<R>,
    spec: CallSpec<T>,
    options?: CallOptions,
  ): Promise<ApiResult<T>>;
  /** The full address of a route without a `{path}` parameter (e.g. the SSE stream). */
  url<R extends RouteSpec>(route: R, params: PathParams<R>): string;
  /** Reads a successful response as the reader says (a raw response read later as JSON). */
  read<T>(response: Response, reader: Reader<T>): Promise<ApiResult<T>>;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One try's deadline: the base, plus 10 s per MB of body sent. */
function deadlineFor(baseMs: number, body: string | Uint8Array | undefined): number {
  const bytes = typeof body === 'string' ? Buffer.byteLength(body) : (body?.byteLength ?? 0);
  return byteDeadlineMs(bytes, { baseMs, msPerMegabyte: 10_000 });
}

export function createApiRequest(options: ApiClientOptions): ApiRequest {
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const sleep = options.sleep ?? realSleep;
  const maxAttempts = options.maxAttempts ?? 4;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  const logger = options.logger ?? silentLogger;
  const base = options.baseUrl.replace(/\/+$/, '');
  const deadlineMs = options.deadlineMs ?? 120_000;
  const backoff = (attempt: number): number =>
    backoffDelay(attempt - 1, options.random ? { random: options.random } : {});

  function urlFor(path: string, query?: CallSpec<unknown>['query']): string {
    const url = new URL(base + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.href;
  }

  async function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
    try {
      await sleep(ms, signal);
      return true;
    } catch {
      return false;
    }
  }

  async function read<T>(response: Response, reader: Reader<T>): Promise<ApiResult<T>> {
    if (reader.kind === 'none') {
      await response.body?.cancel();
      return ok(undefined as T);
    }
    if (reader.kind === 'raw') return ok(response as T);
    const body = await readBody(response);
    const parsed = reader.schema.safeParse(body);
    if (parsed.success) return ok(parsed.data);
    logger.warn(`Unexpected response shape from the service: ${describeZodError(parsed.error)}`);
    return err({
      code: 'invalid_response',
      status: response.status,
      message: 'The service sent a response AgentDesk could not read.',
      body,
    });
  }

  /** A call with no signal of its own runs under a deadline whose timer goes when the call ends. */
  async function call<T, R extends RouteSpec>(
    route: R,
    params: PathParams<R>,
    spec: CallSpec<T>,
    callOptions: CallOptions = {},
  ): Promise<ApiResult<T>> {
    if (callOptions.signal) return send(route, params, spec, callOptions);
    const deadline = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (ms: number): void => {
      timer = setTimeout(() => deadline.abort(), ms);
      timer.unref?.();
    };
    try {
      return await send(route, params, spec, { ...callOptions, signal: deadline.signal }, arm);
    } finally {
      clearTimeout(timer);
    }
  }

  async function send<T, R extends RouteSpec>(
    route: R,
    params: PathParams<R>,
    spec: CallSpec<T>,
    call: CallOptions,
    /** Set for a call under the default deadline: starts it once the body's size is known. */
    armDeadline?: (ms: number) => void,
  ): Promise<ApiResult<T>> {
    const path = fillPath(route, params);
    if (!path.ok) return path;
    const { method } = route;
    const url = urlFor(path.value, spec.query);
    const resendable = spec.resendable ?? method !== 'POST';
    // Serialised once, so every retry sends exactly the same body (and the same turnId).
    const body = spec.json !== undefined ? JSON.stringify(spec.json) : spec.bytes?.data;
    const contentType = spec.json !== undefined ? 'application/json' : spec.bytes?.contentType;
    // A server that never answers must not leave a screen waiting: running out of the default deadline
    // is said plainly (and not retried); the caller's own signal means it cancelled.
    const { signal } = call;
    const ms = deadlineFor(deadlineMs, body);
    armDeadline?.(ms);
    const stopped = (): ApiError => (armDeadline ? timedOutError(ms) : cancelledError);

    const initial = await options.auth.getAccessToken();
    if (!initial.ok) return err({ code: 'signed_out', status: 401, message: initial.error.message });
    let token = initial.value;
    let refreshed = false;

    for (let attempt = 1; ; attempt += 1) {
      if (signal?.aborted) return err(stopped());
      const headers: Record<string, string> = {
        ...call.headers,
        authorization: `Bearer ${token}`,
        accept: spec.accept ?? 'application/json',
      };
      if (contentType) headers['content-type'] = contentType;

      let response: Response;
      try {
        response = await fetchImpl(url, {
          method,
          headers,
          ...(spec.bytes?.onProgress
            ? // A fresh counting stream per try; `duplex` is what fetch needs to send a stream.
              ({ body: progressBody(spec.bytes.data, spec.bytes.onProgress), duplex: 'half' } as RequestInit)
            : body !== undefined
              ? { body: body as NonNullable<RequestInit['body']> }
              : {}),
          // A redirect is reported, never followed: following one would send the person's files and
          // messages on to wherever it points. (Not following also spares fetch a copy of each body.)
          redirect: 'manual',
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        if (signal?.aborted) return err(stopped());
        if (!resendable || attempt >= maxAttempts) return err(networkError(base, error));
        const wait = backoff(attempt);
        logger.warn(`${method} ${path.value} failed to connect; retrying in ${wait} ms`);
        if (!(await pause(wait, signal))) return err(stopped());
        continue;
      }

      logger.debug(`${method} ${url} -> ${response.status}`);
      if (response.status === 401 && !refreshed) {
        await response.body?.cancel();
        refreshed = true;
        const next = await options.auth.handleUnauthorized(token);
        if (!next.ok) return err({ code: 'signed_out', status: 401, message: next.error.message });
        token = next.value;
        attempt -= 1; // the retry after a refresh is not a 429/503 attempt
        continue;
      }

      if ((response.status === 429 || response.status === 503) && attempt < maxAttempts) {
        const wait = parseRetryAfter(response.headers.get('retry-after')) ?? backoff(attempt);
        if (wait <= maxRetryDelayMs) {
          await response.body?.cancel();
          logger.info(`${method} ${path.value} answered ${response.status}; retrying in ${wait} ms`);
          if (!(await pause(wait, signal))) return err(stopped());
          continue;
        }
      }

      if (isRedirect(response.status)) {
        await response.body?.cancel();
        return err(redirectedError(response.status, response.headers.get('location'), url));
      }
      try {
        if (!response.ok) return err(apiErrorFromResponse(response.status, await readBody(response)));
        return await read(response, spec.read);
      } catch (error) {
        if (signal?.aborted) return err(stopped());
        throw error;
      }
    }
  }

  return {
    baseUrl: base,
    call,
    url(route, params) {
      const path = fillPath(route, params);
      // Only a `{path}` parameter can refuse a value, and such routes are called, never linked.
      if (!path.ok) throw new Error(path.error.message);
      return urlFor(path.value);
    },
    read,
  };
}
