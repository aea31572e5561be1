/**
 * A streamed answer (the event stream) outlives the request that opened it, so the bearer checked at the
 * start is checked again while it runs: when the sign-in is revoked, the account deleted or the access token
 * expires, the stream ends (the client reconnects with a fresh bearer, or learns it is signed out). One timer
 * checks every open stream, each distinct grant once per tick (a client's streams share its bearer).
 */
export class StreamGrantWatch {
  private readonly checks = new Set<(verdicts: Map<string, Promise<boolean>>) => void>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly intervalMs = 1000) {}

  /** `response` with a body that ends as soon as `stillAllowed()` answers false for `grant` (e.g. the bearer). */
  watch(response: Response, grant: string, stillAllowed: () => Promise<boolean> | boolean): Response {
    const source = response.body;
    if (!source) return response;
    const reader = source.getReader();
    let ended = false;
    let check: ((verdicts: Map<string, Promise<boolean>>) => void) | null = null;
    const end = (): void => {
      ended = true;
      if (check) this.checks.delete(check);
      if (this.checks.size === 0) this.stop();
    };
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const onTick = (verdicts: Map<string, Promise<boolean>>): void => {
          if (ended) return;
          // A store that cannot answer this tick ends no stream; the next tick asks again.
          const verdict = verdicts.get(grant) ?? Promise.resolve(stillAllowed()).catch(() => true);
          verdicts.set(grant, verdict);
          void verdict.then((allowed) => {
            if (allowed || ended) return;
            end();
            controller.close();
            void reader.cancel('the sign-in behind this stream ended').catch(() => {});
          });
        };
        check = onTick;
        this.add(onTick);
      },
      pull: async (controller) => {
        const next = await reader.read();
        if (ended) return;
        if (next.done) {
          end();
          controller.close();
        } else controller.enqueue(next.value);
      },
      cancel: (reason) => {
        end();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  }

  private add(check: (verdicts: Map<string, Promise<boolean>>) => void): void {
    this.checks.add(check);
    if (this.timer) return;
    this.timer = setInterval(() => {
      const verdicts = new Map<string, Promise<boolean>>();
      for (const each of [...this.checks]) each(verdicts);
    }, this.intervalMs);
    this.timer.unref();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
