/**
 * The fetch every provider request goes through: nothing hangs. A request gets `firstByteMs` to
 * answer, then its stream may go quiet at most `quietMs` between pieces; past either it is aborted
 * with a `ProviderTimeout`, which provider-errors.ts says in words. Only the provider's own request is
 * timed, never the tools the model calls between requests (a permission may wait minutes).
 */

export class ProviderTimeout extends Error {
  // 'TimeoutError' so the AI SDK passes it on as an abort, untouched.
  override readonly name = 'TimeoutError';
  constructor(
    readonly afterMs: number,
    readonly phase: 'answer' | 'stream',
  ) {
    super(phase === 'answer' ? `no answer within ${afterMs} ms` : `the stream stalled for ${afterMs} ms`);
  }
}

export interface Timeouts {
  firstByteMs: number;
  quietMs: number;
}

/** Defaults: a minute to start answering (a big prompt on a local model takes a while), a minute of silence. */
export function providerTimeouts(env: NodeJS.ProcessEnv = process.env): Timeouts {
  const given = Number(env['AGENTDESK_MODEL_TIMEOUT_MS']);
  const ms = Number.isFinite(given) && given > 0 ? given : 60_000;
  return { firstByteMs: ms, quietMs: ms };
}

export function timedFetch(timeouts: Timeouts, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const watchdog = new AbortController();
    const signal = init?.signal ? AbortSignal.any([init.signal, watchdog.signal]) : watchdog.signal;
    const answerTimer = setTimeout(
      () => watchdog.abort(new ProviderTimeout(timeouts.firstByteMs, 'answer')),
      timeouts.firstByteMs,
    );
    let response: Response;
    try {
      response = await base(input, { ...init, signal });
    } catch (error) {
      throw watchdog.signal.aborted ? watchdog.signal.reason : error;
    } finally {
      clearTimeout(answerTimer);
    }
    if (!response.body) return response;
    return new Response(quietGuard(response.body, timeouts.quietMs, watchdog), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The body, errored with a ProviderTimeout (and the request aborted) when no piece comes for `quietMs`. */
function quietGuard(
  body: ReadableStream<Uint8Array>,
  quietMs: number,
  watchdog: AbortController,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const timeout = new ProviderTimeout(quietMs, 'stream');
          watchdog.abort(timeout);
          reject(timeout);
        }, quietMs);
      });
      try {
        const { done, value } = await Promise.race([reader.read(), stalled]);
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        reader.cancel(error).catch(() => undefined);
        controller.error(error);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
