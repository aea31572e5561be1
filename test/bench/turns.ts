/**
 * Turn benchmarks of the local service (printed, not asserted):
 * 1. POST message -> first `chunk` on the event stream, with the built-in demo agent (goal: p50 < 15 ms).
 * 2. 2,000 open event streams receiving heartbeats (goal: service RSS < 300 MB).
 * The service runs in its own process (test/bench/turns-service.ts) so its RSS is measured alone.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { EventStreamReader } from '../support/sse';
import { openEvents } from '../support/sse';

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

async function api(child: Child, method: string, path: string, body?: unknown) {
  const res = await fetch(child.url + path, {
    method,
    headers: { Authorization: `Bearer ${child.token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

async function firstChunkLatency(child: Child): Promise<number[]> {
  const base = `/api/v2/me/agents/${child.agentId}/conversations`;
  const id = (await api(child, 'POST', base)).id as string;
  const stream = await openEvents(`${child.url}${base}/${id}/events`, child.token);
  const samples: number[] = [];
  for (let i = 0; i < LATENCY_RUNS + 3; i++) {
    const turnId = randomUUID();
    const t0 = performance.now();
    const post = api(child, 'POST', `${base}/${id}/messages`, { content: `hello ${i}`, turnId });
    await stream.nextNamed('chunk', (d) => d.turnId === turnId);
    const t1 = performance.now();
    await post;
    await stream.nextNamed('done', (d) => d.turnId === turnId);
    if (i >= 3) samples.push(t1 - t0); // the first turns spawn and warm the agent
  }
  stream.close();
  return samples.sort((a, b) => a - b);
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
  return { before, after, open, beating };
}

const child = await startChild();
try {
  const latency = await firstChunkLatency(child);
  console.log(
    `turns: POST message -> first chunk (demo agent, ${latency.length} turns): ` +
      `p50 ${pct(latency, 0.5).toFixed(1)} ms, p90 ${pct(latency, 0.9).toFixed(1)} ms, ` +
      `p99 ${pct(latency, 0.99).toFixed(1)} ms (goal p50 < 15 ms)`,
  );
  const streams = await manyStreams(child);
  console.log(
    `turns: ${streams.open} open event streams, ${streams.beating} receiving heartbeats: service RSS ` +
      `${streams.after.toFixed(0)} MB (${streams.before.toFixed(0)} MB before opening them; goal < 300 MB)`,
  );
} finally {
  await child.stop();
}
