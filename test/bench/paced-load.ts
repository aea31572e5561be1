/**
 * An open-loop load generator for `bench:service`, run in its own process (`node --import tsx paced-load.ts`,
 * pinned to a core with taskset when the bench can): request i is due at start + i / rate, evenly spaced,
 * whether or not earlier answers came back. Its latency counts from when the request was due, so a stall of
 * the service (or of the generator) shows in every request it delayed, not in one (no coordinated omission).
 * autocannon's fixed-rate mode is not that: each connection sends its share of a second back to back at the
 * top of the second, then waits, and its correction adds made-up samples at 1 ms steps under every slow one.
 *
 * Input: one JSON line of {@link PacedLoad} in argv[2]. Output: one JSON line of {@link PacedResult} on stdout.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { getRequest, LeanConnection } from './lean-connection';
import { pinned } from './service-process';

export interface PacedLoad {
  url: string;
  headers: Record<string, string>;
  rate: number;
  durationS: number;
  /** Keep-alive connections at most; a request due while all are busy waits for one (and that counts). */
  connections: number;
}

export interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

export interface PacedResult {
  requests: number;
  failures: number;
  /** From when each request was due to its last byte, ms. */
  latency: Percentiles;
  /** From when each request was written to its last byte (what a closed-loop tool shows), ms. */
  service: Percentiles;
  /** How late a request got its connection after it was due, at worst, ms (generator lag or all busy). */
  worstSendDelay: number;
  /** CPU time the generator used per request, µs. */
  generatorCpuUs: number;
}

export const percentiles = (samples: Float64Array): Percentiles => {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), p999: at(0.999), max: sorted.at(-1) ?? NaN };
};

export async function pacedLoad(load: PacedLoad): Promise<PacedResult> {
  const total = Math.round(load.rate * load.durationS);
  const fromDue = new Float64Array(total);
  const fromSend = new Float64Array(total);
  let failures = 0;
  let worstSendDelay = 0;
  let sent = 0;
  let answered = 0;
  let finished = 0;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const dueAt = (i: number) => start + (i * 1000) / load.rate;

  return new Promise((done) => {
    const finish = () => {
      for (const connection of idle) connection.destroy();
      const cpu = process.cpuUsage(cpuBefore);
      done({
        requests: finished,
        failures,
        latency: percentiles(fromDue.subarray(0, answered)),
        service: percentiles(fromSend.subarray(0, answered)),
        worstSendDelay,
        generatorCpuUs: (cpu.user + cpu.system) / finished,
      });
    };
    // Keep-alive connections, the most recently freed used first (as Node's http.Agent does).
    const url = new URL(load.url);
    const request = getRequest(url, load.headers);
    const idle: LeanConnection[] = [];
    const queued: number[] = [];
    let open = 0;
    const closed = (connection: LeanConnection) => {
      open--;
      const at = idle.indexOf(connection);
      if (at >= 0) idle.splice(at, 1);
      const next = queued.shift();
      if (next !== undefined) send(next);
    };
    const sendOn = (connection: LeanConnection, i: number) => {
      const written = performance.now();
      worstSendDelay = Math.max(worstSendDelay, written - dueAt(i));
      connection.send(request, (status) => {
        const ended = performance.now();
        if (status === null) failures++;
        else {
          if (status !== 200) failures++;
          fromDue[answered] = ended - dueAt(i);
          fromSend[answered] = ended - written;
          answered++;
          // A connection that closes takes no more; `closed` hands what waits to another.
          if (connection.reusable) {
            const next = queued.shift();
            if (next !== undefined) sendOn(connection, next);
            else idle.push(connection);
          }
        }
        if (++finished === total) finish();
      });
    };
    // A request due while every connection is busy waits for one; from when it was due, that counts.
    function send(i: number): void {
      const connection = idle.pop();
      if (connection) return sendOn(connection, i);
      if (open >= load.connections) return void queued.push(i);
      open++;
      sendOn(new LeanConnection(url, closed), i);
    }
    // A 1 ms timer fires late on a busy machine: each tick sends every request that has come due.
    const ticker = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * load.rate) / 1000) + 1);
      while (sent < due) send(sent++);
      if (sent === total) clearInterval(ticker);
    }, 1);
  });
}

/** Runs {@link pacedLoad} in a child process of its own, pinned to `cpus` when given. */
export async function pacedLoadProcess(load: PacedLoad, cpus: string | null): Promise<PacedResult> {
  const [command, ...args] = pinned(cpus, [process.execPath, '--import', 'tsx', self, JSON.stringify(load)]);
  const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0) throw new Error(`the load generator exited with ${code}`);
  return JSON.parse(output) as PacedResult;
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] && resolve(process.argv[1]) === self) {
  const result = await pacedLoad(JSON.parse(process.argv[2] ?? '{}') as PacedLoad);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
