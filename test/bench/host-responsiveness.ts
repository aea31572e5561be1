import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Page } from '@playwright/test';

/** How the host kept up while something ran: its event loop's delay and a bridge call's answer, in ms. */
export interface HostResponsiveness {
  seconds: number;
  loopDelay: { p50: number; p99: number; max: number };
  /**
   * The host's main thread over the watch (Linux's schedstat): ms on a CPU, and ms it was ready to run
   * but waited for one (a busy machine's share of every stall).
   */
  thread: { cpu: number; waited: number } | null;
  /** Each stall over 50 ms: when it ended (s from the start) and how long it was (ms). */
  stalls: { at: number; ms: number }[];
  answer: { count: number; p50: number; p99: number; max: number };
}

/** The main thread's [ns on a CPU, ns waiting for one], where Linux says. */
function threadTimes(): [number, number] | null {
  const file = `/proc/self/task/${process.pid}/schedstat`;
  if (!existsSync(file)) return null;
  const [cpu, waited] = readFileSync(file, 'utf8').split(' ').map(Number);
  return [cpu!, waited!];
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/**
 * Watches the host (this process: browser mode runs it here) from now until `stop`: its event loop's delay
 * (perf_hooks, sampled every 2 ms) and, once `askFrom` names a loaded page, a bridge call that asks nothing
 * of the store (getSession, every 100 ms over the bridge's socket): what a person's click waits for.
 */
export async function watchHost(): Promise<{
  askFrom(page: Page): Promise<void>;
  stop(): Promise<HostResponsiveness>;
}> {
  const profile = await profiler(process.env['BENCH_HOST_PROFILE']);
  const delay = monitorEventLoopDelay({ resolution: 2 });
  const started = performance.now();
  const threadAtStart = threadTimes();
  delay.enable();
  const stalls: HostResponsiveness['stalls'] = [];
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    if (now - last > 60) stalls.push({ at: (now - started) / 1000, ms: now - last - 10 });
    last = now;
  }, 10);
  let asking: Page | null = null;
  return {
    async askFrom(page) {
      asking = page;
      await page.evaluate(`(() => {
        const times = (globalThis.__bridgeAnswers = []);
        globalThis.__bridgeWatch = true;
        void (async () => {
          while (globalThis.__bridgeWatch) {
            const sent = performance.now();
            await window.desk.getSession();
            times.push(performance.now() - sent);
            await new Promise((done) => setTimeout(done, 100));
          }
        })();
      })()`);
    },
    async stop() {
      delay.disable();
      const threadAtEnd = threadTimes();
      clearInterval(tick);
      await profile.stop();
      const answers = asking
        ? await asking.evaluate<number[]>(
            '(() => { globalThis.__bridgeWatch = false; return globalThis.__bridgeAnswers; })()',
          )
        : [];
      const sorted = answers.slice().sort((a, b) => a - b);
      const ms = (ns: number) => ns / 1e6;
      return {
        seconds: (performance.now() - started) / 1000,
        loopDelay: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
        stalls,
        thread:
          threadAtStart && threadAtEnd
            ? { cpu: ms(threadAtEnd[0] - threadAtStart[0]), waited: ms(threadAtEnd[1] - threadAtStart[1]) }
            : null,
        answer: {
          count: sorted.length,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          max: sorted[sorted.length - 1] ?? 0,
        },
      };
    },
  };
}

/** With a file named (BENCH_HOST_PROFILE), a CPU profile of the host's thread over the watch, for DevTools. */
async function profiler(file: string | undefined): Promise<{ stop(): Promise<void> }> {
  if (!file) return { stop: async () => {} };
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

export function showResponsiveness(r: HostResponsiveness): string {
  const f = (n: number) => n.toFixed(1);
  return (
    `${r.seconds.toFixed(1)} s: ${r.thread ? `main thread ${r.thread.cpu.toFixed(0)} ms on a CPU, ${r.thread.waited.toFixed(0)} ms waiting for one; ` : ''}event-loop delay p50 ${f(r.loopDelay.p50)} · p99 ${f(r.loopDelay.p99)} · max ${f(r.loopDelay.max)} ms; ` +
    `getSession over the bridge (${r.answer.count}) p50 ${f(r.answer.p50)} · p99 ${f(r.answer.p99)} · max ${f(r.answer.max)} ms; ` +
    `stalls over 50 ms: ${r.stalls.map((s) => `${s.ms.toFixed(0)} ms at ${s.at.toFixed(1)} s`).join(', ') || 'none'}`
  );
}
