/**
 * Turn benchmarks of the local service (printed, not asserted):
 * 1. POST message -> first `chunk` on the event stream, with the built-in demo agent (goal: p50 < 15 ms).
 * 2. 2,000 open event streams receiving heartbeats (goal: service RSS < 300 MB).
 * The service runs in its own process (test/bench/turns-service.ts) so its RSS is measured alone.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { EventStreamReader } from '../support/sse';
import { openEvents } from '../support/sse';
import { benchRow } from './bench-row';

const LATENCY_RUNS = Number(process.env.BENCH_TURNS ?? 60);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 2000);
const HEARTBEAT_MS = 1000;

interface Child {
  url: string;
  token: string;
  agentId: string;
  pid: number;
  stop(): Promise<void>;
}

async function startChild(): Promise<Child> {
  const script = fileURLToPath(new URL('./turns-service.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, BENCH_HEARTBEAT_MS: String(HEARTBEAT_MS) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`service exited (${code})`)));
  });
  const info = JSON.parse(line) as Omit<Child, 'stop'>;
  return {
    ...info,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

// node:http with keep-alive sends a small request's headers and body in one write; the measured
// time is then the service's, not the client's (fetch adds several ms to POSTs with a body here).
const keepAlive = new http.Agent({ keepAlive: true });

function api(child: Child, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const payload = body === undefined ? '' : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      child.url + path,
      {
        method,
        agent: keepAlive,
        headers: {
          Authorization: `Bearer ${child.token}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve(JSON.parse(Buffer.concat(chunks).toString() || 'null') as Record<string, unknown>),
        );
      },
    );
    req.on('socket', (socket) => socket.setNoDelay(true));
    req.on('error', reject);
    req.end(payload);
  });
}

async function firstChunkLatency(child: Child) {
  const base = `/api/v2/me/agents/${child.agentId}/conversations`;
  const id = (await api(child, 'POST', base)).id as string;
  const stream = await openEvents(`${child.url}${base}/${id}/events`, child.token);
  const samples: number[] = [];
  const accepted: number[] = [];
  for (let i = 0; i < LATENCY_RUNS + 3; i++) {
    const turnId = randomUUID();
    const t0 = performance.now();
    let tPost = 0;
    const post = api(child, 'POST', `${base}/${id}/messages`, { content: `hello ${i}`, turnId }).then(() => {
      tPost = performance.now();
    });
    await stream.nextNamed('chunk', (d) => d.turnId === turnId);
    const t1 = performance.now();
    await post;
    await stream.nextNamed('done', (d) => d.turnId === turnId);
    // The first turns spawn and warm the agent.
    if (i >= 3) {
      samples.push(t1 - t0);
      accepted.push(tPost - t0);
    }
  }
  stream.close();
  // Baseline on the same machine at the same time: an authenticated GET of that conversation.
  const baseline: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    await api(child, 'GET', `${base}/${id}?limit=1`);
    baseline.push(performance.now() - t0);
  }
  return {
    chunk: samples.sort((a, b) => a - b),
    accepted: accepted.sort((a, b) => a - b),
    baseline: baseline.sort((a, b) => a - b),
  };
}

async function manyStreams(
  child: Child,
): Promise<{ before: number; after: number; open: number; beating: number }> {
  const base = `/api/v2/me/agents/${child.agentId}/conversations`;
  const id = (await api(child, 'POST', base)).id as string;
  const before = rssMb(child.pid);
  const readers: EventStreamReader[] = [];
  for (let i = 0; i < STREAMS; i += 100) {
    const batch = Array.from({ length: Math.min(100, STREAMS - i) }, () =>
      openEvents(`${child.url}${base}/${id}/events`, child.token),
    );
    readers.push(...(await Promise.all(batch)));
  }
  const open = readers.filter((r) => r.status === 200).length;
  // Every stream must see two heartbeats after all are open.
  const marks = readers.map((r) => r.comments.length);
  await Promise.all(readers.map((r, n) => r.heartbeats(marks[n]! + 2, 30_000)));
  const beating = readers.filter((r, n) => r.comments.length >= marks[n]! + 2).length;
  const after = rssMb(child.pid);
  for (const r of readers) r.close();
  keepAlive.destroy();
  return { before, after, open, beating };
}

const child = await startChild();
try {
  const { chunk: latency, accepted, baseline } = await firstChunkLatency(child);
  console.log(
    `turns: POST message -> first chunk (demo agent, ${latency.length} turns): ` +
      `p50 ${pct(latency, 0.5).toFixed(1)} ms, p90 ${pct(latency, 0.9).toFixed(1)} ms, ` +
      `p99 ${pct(latency, 0.99).toFixed(1)} ms (goal p50 < 15 ms); the 202 itself: p50 ` +
      `${pct(accepted, 0.5).toFixed(1)} ms; a plain authenticated GET: p50 ${pct(baseline, 0.5).toFixed(1)} ms`,
  );
  benchRow({
    id: 'turns.firstChunk.p50',
    what: 'turns: POST message to the first chunk (demo agent), p50',
    value: pct(latency, 0.5),
    unit: 'ms',
    goal: '< 15 ms',
    ok: pct(latency, 0.5) < 15,
  });
  console.log(
    `turns: load average while measuring: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (2 cores)`,
  );
  const streams = await manyStreams(child);
  console.log(
    `turns: ${streams.open} open event streams, ${streams.beating} receiving heartbeats: service RSS ` +
      `${streams.after.toFixed(0)} MB (${streams.before.toFixed(0)} MB before opening them; goal < 300 MB)`,
  );
  benchRow({
    id: 'turns.streams.rss',
    what: `turns: ${streams.open} open event streams, service RSS`,
    value: streams.after,
    unit: 'MB',
    goal: '< 300 MB, all receiving heartbeats',
    ok: streams.after < 300 && streams.beating === streams.open,
  });
} finally {
  await child.stop();
}
