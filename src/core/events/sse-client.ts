import { createParser } from 'eventsource-parser';
import type { EventSourceMessage } from 'eventsource-parser';
import { parseSseEvent } from '../../shared/api';
import type { StreamEvent } from '../../shared/api';
import type { AccessTokenSource } from '../auth/access-token-source';
import type { Logger } from '../log/logger';
import { silentLogger } from '../log/logger';
import { apiErrorFromResponse } from '../api/api-error';
import { realSleep } from '../common/result';
import type { FetchLike, Sleep } from '../common/result';
import { backoffDelay, parseRetryAfter } from '../api/retry-after';
import { streamEventFromWire } from '../api/stream-words';

/**
 * A conversation's event stream over fetch + eventsource-parser (EventSource cannot send the
 * Authorization header). Before every connect it asks for a fresh bearer; it reconnects with
 * jittered backoff (honouring Retry-After and the server's `retry:`), resumes with
 * Last-Event-ID, and drops an event id it already delivered, so a reconnect neither loses
 * nor repeats events. A watchdog reconnects when nothing (not even a heartbeat) arrives for
 * 2.5 heartbeats. A turn the stream started but never ended, when the stream then says the
 * conversation is idle (`done {idle}`, e.g. after the server restarted), is ended here with an
 * `error` and its `done {turnId}`, so no listener waits for it forever. Events are handed on in
 * our words (shared/api/stream-event.ts), read from the wire's once here.
 */

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export type { StreamEvent };

export interface StreamError {
  /** `stalled`, `network`, `invalid_event`, `signed_out`, or the HTTP error's code (`not_found`, `forbidden`, ...). */
  code: string;
  message: string;
  /** True when the subscription gave up and is now closed. */
  fatal: boolean;
  status?: number;
}

export interface SubscribeOptions {
  /** From `api.eventsUrl(agentId, sessionId)`. */
  url: string;
  auth: AccessTokenSource;
  /** Electron's `net.fetch` in the app; global fetch by default. */
  fetch?: FetchLike;
  onEvent(event: StreamEvent): void;
  onState?(state: ConnectionState): void;
  onError?(error: StreamError): void;
  /** Resume after this id (e.g. the last one a previous subscription saw). */
  lastEventId?: string;
  /** The server's heartbeat interval. Default 25 s. */
  heartbeatMs?: number;
  /** Reconnect when silent for heartbeatMs × this. Default 2.5. */
  watchdogFactor?: number;
  /** First reconnect delay step and its cap. Defaults 1 s and 30 s. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  random?: () => number;
  sleep?: Sleep;
  logger?: Logger;
}

export interface EventSubscription {
  readonly state: ConnectionState;
  /** The id of the last event received, for resuming later. */
  readonly lastEventId: string | undefined;
  close(): void;
}

export const LOST_TURN_MESSAGE =
  'The connection to the server was interrupted and the server now says nothing is running, so the end of this reply was missed (the server may have restarted). Reload the conversation to see what was saved, or send your message again.';

// Events that name the turn they belong to while it runs.
const TURN_EVENTS = new Set(['started', 'status', 'chunk']);

// Ids remembered to drop repeats; a turn is far shorter than this.
const SEEN_ID_LIMIT = 10_000;
const FATAL_STATUSES = new Set([400, 403, 404, 405, 409, 410]);

function isIdleNotice(message: EventSourceMessage): boolean {
  if (message.event !== 'done') return false;
  const parsed = parseSseEvent('done', message.data);
  return parsed.ok && 'reposo' in parsed.event.data && parsed.event.data.reposo === true;
}

export function subscribeEvents(options: SubscribeOptions): EventSubscription {
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const sleep = options.sleep ?? realSleep;
  const logger = options.logger ?? silentLogger;
  const stallMs = (options.heartbeatMs ?? 25_000) * (options.watchdogFactor ?? 2.5);
  const backoff = (attempt: number, serverRetryMs?: number): number =>
    backoffDelay(attempt, {
      baseMs: serverRetryMs ?? options.backoffBaseMs ?? 1000,
      maxMs: options.backoffMaxMs ?? 30_000,
      ...(options.random ? { random: options.random } : {}),
    });

  const closer = new AbortController();
  let state: ConnectionState = 'connecting';
  let lastEventId = options.lastEventId;
  let serverRetryMs: number | undefined;
  const seen = new Set<string>();
  let runningTurnId: string | undefined;
  // Without event ids, a reconnect replays the current turn from its start (the spec's rule):
  // what this subscription already delivered of it is skipped, in order, while it matches.
  let turnSoFar: string[] = [];
  let replayCursor: number | null = null;

  const setState = (next: ConnectionState): void => {
    if (state === next) return;
    state = next;
    logger.debug(`event stream ${options.url}: ${next}`);
    options.onState?.(next);
  };
  const report = (error: StreamError): void => {
    logger.warn(`event stream: ${error.message}`);
    options.onError?.(error);
  };
  const deliver = (message: EventSourceMessage): void => {
    if (message.id !== undefined) {
      // Already delivered before a reconnect; but an idle notice while a turn runs is news, whatever its
      // id: a restarted server gives its "never ran" notice the id the earlier run gave it.
      if (seen.has(message.id) && !(runningTurnId !== undefined && isIdleNotice(message))) return;
      seen.add(message.id);
      if (seen.size > SEEN_ID_LIMIT) seen.delete(seen.values().next().value as string);
      lastEventId = message.id;
    }
    const fingerprint = `${message.event ?? 'message'}\n${message.data}`;
    if (message.id === undefined && replayCursor !== null && turnSoFar[replayCursor] === fingerprint) {
      replayCursor += 1;
      return; // replayed after a reconnect, already delivered
    }
    replayCursor = null;
    // Appended in place: a copy per event made a turn of n events cost n² (20,000 chunks: minutes of the host's CPU).
    if (message.event === 'done') turnSoFar = [];
    else turnSoFar.push(fingerprint);
    const parsed = parseSseEvent(message.event ?? 'message', message.data);
    if (!parsed.ok) {
      report({ code: 'invalid_event', message: parsed.error.message, fatal: false });
      return;
    }
    const event = streamEventFromWire(parsed.event);
    for (const lost of endLostTurn(event)) emit(lost);
    emit(message.id !== undefined ? { ...event, id: message.id } : event);
  };
  const emit = (event: StreamEvent): void => {
    try {
      options.onEvent(event);
    } catch (error) {
      logger.error('An event listener failed.', error);
    }
  };
  /** Follows the running turn; an idle notice while one runs first ends that turn. */
  const endLostTurn = (event: StreamEvent): StreamEvent[] => {
    const data = event.data as { turnId?: unknown; idle?: unknown };
    if (event.event === 'done') {
      const lost = data.idle === true ? runningTurnId : undefined;
      if (data.idle === true || data.turnId === runningTurnId) runningTurnId = undefined;
      if (!lost) return [];
      logger.warn(`event stream: turn ${lost} never ended before the stream went idle`);
      return [
        { event: 'error', data: { message: LOST_TURN_MESSAGE, code: 'turn_lost', turnId: lost } },
        { event: 'done', data: { turnId: lost } },
      ];
    }
    if (TURN_EVENTS.has(event.event) && typeof data.turnId === 'string') runningTurnId = data.turnId;
    return [];
  };

  /** One connection: resolves with how long to wait before the next, or undefined to stop. */
  const connectOnce = async (
    attempt: number,
    refreshedAfter401: boolean,
  ): Promise<{ waitMs?: number; again401?: boolean; opened?: boolean }> => {
    const token = await options.auth.getAccessToken();
    if (!token.ok) {
      report({ code: 'signed_out', message: token.error.message, fatal: true, status: 401 });
      return {};
    }
    const connection = new AbortController();
    const stop = (): void => connection.abort();
    closer.signal.addEventListener('abort', stop, { once: true });
    let watchdog: NodeJS.Timeout | undefined;
    let stalled = false;
    const feedWatchdog = (): void => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        stalled = true;
        connection.abort();
      }, stallMs);
    };
    try {
      const headers: Record<string, string> = {
        authorization: `Bearer ${token.value}`,
        accept: 'text/event-stream',
        'cache-control': 'no-store',
      };
      if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
      feedWatchdog();
      const response = await fetchImpl(options.url, { headers, signal: connection.signal });

      if (response.status === 401) {
        await response.body?.cancel();
        if (refreshedAfter401) return { waitMs: backoff(attempt, serverRetryMs) };
        const next = await options.auth.handleUnauthorized(token.value);
        if (!next.ok) {
          report({ code: 'signed_out', message: next.error.message, fatal: true, status: 401 });
          return {};
        }
        return { waitMs: 0, again401: true };
      }
      if (!response.ok || !response.body) {
        const body = await response.text().catch(() => '');
        let parsedBody: unknown = body;
        try {
          parsedBody = JSON.parse(body);
        } catch {
          // keep the text
        }
        const error = apiErrorFromResponse(response.status, parsedBody);
        const fatal = FATAL_STATUSES.has(response.status);
        report({ code: error.code, message: error.message, fatal, status: response.status });
        if (fatal) return {};
        return {
          waitMs: parseRetryAfter(response.headers.get('retry-after')) ?? backoff(attempt, serverRetryMs),
        };
      }

      setState('open');
      replayCursor = 0;
      const parser = createParser({
        onEvent: deliver,
        onRetry: (ms) => {
          serverRetryMs = ms;
        },
      });
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        feedWatchdog();
        parser.feed(decoder.decode(value, { stream: true }));
      }
      // The server ended the stream (restart, deploy): come back soon.
      return { waitMs: backoff(0, serverRetryMs), opened: true };
    } catch (error) {
      if (closer.signal.aborted) return {};
      if (stalled) {
        report({ code: 'stalled', message: 'The event stream went quiet; reconnecting.', fatal: false });
        return { waitMs: 0, opened: state === 'open' };
      }
      const opened = state === 'open';
      report({
        code: 'network',
        message: `The event stream was interrupted (${(error as Error).message}); reconnecting.`,
        fatal: false,
      });
      return { waitMs: backoff(opened ? 0 : attempt, serverRetryMs), opened };
    } finally {
      clearTimeout(watchdog);
      closer.signal.removeEventListener('abort', stop);
    }
  };

  const run = async (): Promise<void> => {
    logger.debug(`event stream ${options.url}: connecting`);
    options.onState?.('connecting');
    let attempt = 0;
    let refreshedAfter401 = false;
    while (!closer.signal.aborted) {
      const outcome = await connectOnce(attempt, refreshedAfter401);
      if (closer.signal.aborted || outcome.waitMs === undefined) break;
      refreshedAfter401 = outcome.again401 === true;
      attempt = outcome.opened ? 0 : attempt + 1;
      setState('reconnecting');
      if (outcome.waitMs > 0) {
        try {
          await sleep(outcome.waitMs, closer.signal);
        } catch {
          break;
        }
      }
    }
    closer.abort();
    setState('closed');
  };
  void run();

  return {
    get state() {
      return state;
    },
    get lastEventId() {
      return lastEventId;
    },
    close() {
      closer.abort();
    },
  };
}
