/**
 * `npx tsx test/bench/memory.ts`: the transcript store's speed (issue 17), on real SQLite files.
 *  1. Search 200,000 stored messages: p95 per query under 50 ms.
 *  2. Read and merge a stored conversation of 50,000 messages (what opening it costs the host).
 *  3. Record a 1 MB reply in 10,000 chunks: time on the hot path next to a plain string append
 *     (goal: at most 1.2x), the longest batched write, and the longest event-loop stall while the reply
 *     is indexed for search in slices (goal < 50 ms each).
 * Prints figures; exits 1 when a goal is missed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TranscriptStore } from '../../src/core/memory/transcript-store';
import { TurnRecorder } from '../../src/core/memory/turn-recorder';

const dir = mkdtempSync(join(tmpdir(), 'memory-bench-'));
const words =
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu deploy server backup invoice recipe garden'.split(
    ' ',
  );
const sentence = (i: number) =>
  Array.from({ length: 24 }, (_, j) => words[(i * 7 + j * 13 + (i % 11)) % words.length]).join(' ') +
  ` n${i}`;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
let failed = false;

try {
  const store = TranscriptStore.open(join(dir, 'transcripts.db'));
  // 1. 200,000 messages in 400 conversations of 4 agents.
  let t = performance.now();
  for (let c = 0; c < 400; c++) {
    const messages = Array.from({ length: 500 }, (_, i) => ({
      role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
      content: sentence(c * 500 + i),
      at: Date.UTC(2026, 0, 1) + (c * 500 + i) * 60_000,
    }));
    store.saveHistory(`agent-${c % 4}`, `conv-${c}`, messages, 0);
  }
  console.log(`stored 200,000 messages in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const queries = [
    'deploy',
    'back',
    'inv',
    'garden recipe',
    'n12345',
    'zulu alpha',
    'ser',
    'oscar papa quebec',
    'hot',
    'nov',
  ];
  const times: number[] = [];
  for (let round = 0; round < 10; round++) {
    for (const q of queries) {
      t = performance.now();
      store.search({ text: q, ...(round % 2 ? { agentId: 'agent-1' } : {}) });
      times.push(performance.now() - t);
    }
  }
  const searchP95 = p95(times);
  console.log(
    `search over 200,000 messages: p95 ${searchP95.toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (goal p95 < 50 ms)`,
  );
  if (searchP95 >= 50) failed = true;

  // 2. One conversation of 50,000 messages.
  const big = Array.from({ length: 50_000 }, (_, i) => ({
    role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
    content: sentence(i),
    at: Date.UTC(2026, 1, 1) + i * 1000,
  }));
  store.saveHistory('agent-0', 'big', big, 0);
  t = performance.now();
  const tail = store.merged('big', undefined, 50);
  const tailMs = performance.now() - t;
  t = performance.now();
  const whole = store.merged('big');
  console.log(
    `stored conversation of ${whole.messages.length} messages: its last ${tail.messages.length} read and merged in ` +
      `${tailMs.toFixed(1)} ms (opening it offline); all of it in ${(performance.now() - t).toFixed(0)} ms (export)`,
  );

  // 3. A 1 MB reply in 10,000 chunks through the recorder, ten chunks a millisecond, so the recorder's own
  // timers write batches as they would in the app.
  const chunks = Array.from({ length: 10_000 }, (_, i) => sentence(i).padEnd(100, '.').slice(0, 100));
  const recorder = new TurnRecorder(store);
  const writes: number[] = [];
  const flush = recorder.flush.bind(recorder);
  recorder.flush = () => {
    const start = performance.now();
    flush();
    writes.push(performance.now() - start);
  };
  recorder.observe('agent-0', 'stream', { event: 'started', data: { turnId: 'u1' }, id: 'u1.1' });
  let hot = 0;
  for (let i = 0; i < chunks.length; i++) {
    const start = performance.now();
    recorder.observe('agent-0', 'stream', {
      event: 'chunk',
      data: { text: chunks[i], turnId: 'u1' },
      id: `u1.${i + 2}`,
    });
    hot += performance.now() - start;
    if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 1));
  }
  recorder.observe('agent-0', 'stream', {
    event: 'done',
    data: { turnId: 'u1', estado: 'done' },
    id: 'u1.99999',
  });
  // The host's event loop while the last write lands and the reply is indexed for search in parts.
  let lastTick = performance.now();
  let longestGap = 0;
  const ticker = setInterval(() => {
    const tick = performance.now();
    longestGap = Math.max(longestGap, tick - lastTick);
    lastTick = tick;
  }, 1);
  const indexStart = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 50));
  await store.indexed();
  const indexMs = performance.now() - indexStart;
  clearInterval(ticker);
  const longest = Math.max(...writes);
  const searchable = store
    .search({ text: chunks.at(-1)!.split(' ')[0]! })
    .some((h) => h.conversationId === 'stream');
  console.log(
    `recording 10,000 chunks (1 MB): ${hot.toFixed(1)} ms on the hot path in all ` +
      `(${((hot / chunks.length) * 1000).toFixed(1)} µs a chunk); ${writes.length} batched writes in the host, ` +
      `longest ${longest.toFixed(1)} ms (goal < 50 ms); indexed for search in slices within ${indexMs.toFixed(0)} ms, ` +
      `longest event-loop stall ${longestGap.toFixed(1)} ms (goal < 50 ms)${searchable ? '' : ' — NOT SEARCHABLE'}`,
  );
  if (longest >= 50 || longestGap >= 50 || !searchable) failed = true;
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
