/**
 * `npm run bench:ui`: the chat view's speed in Chromium.
 *  1. A 1 MB reply streamed in 10,000 chunks, one chunk per task (as socket
 *     messages arrive). Goals: no long task over 50 ms; total time at most
 *     1.2x a plain text append of the same chunks at the same pace. The transcript store records
 *     in the host process, not here; its per-chunk cost is printed by test/bench/memory.ts.
 *  2. One 100 KB code block streamed in 1,000 chunks. Goal: no long task over 50 ms.
 *  3. Opening a stored conversation of 500,000 messages, each reply with its stored detail (thought,
 *     tool call, usage). Goal: under 150 ms to first paint (the host's read of it is in memory.ts).
 * Prints figures; exits 1 when a goal is missed.
 * BENCH_CPU_SLOWDOWN=4 runs the page with Chromium's CPU throttling (a stand-in for a loaded machine);
 * BENCH_PROFILE=<file.cpuprofile> saves a CPU profile of the 1 MB stream (open it in Chrome's DevTools),
 * BENCH_TRACE=<file.json> keeps its performance trace (tasks, layout, paint); both build unminified.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, expect, type Page } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { serveRenderer } from '../../src/browser/static-server';
import { chromiumArgs, chromiumExecutable } from '../e2e/chromium';
import { anyMissed, benchRow } from './bench-row';
import { taskTimes } from './ui-trace';

const repo = resolve(import.meta.dirname, '../..');
const chunkCount = 10_000;
const historySize = 500_000;

/** Markdown-like reply text cut into equal chunks (100 bytes each, 1 MB in all). */
function replyChunks(): string[] {
  const paragraphs = [
    'Streaming replies must stay smooth. This paragraph talks about **batching** per frame, `memoised` blocks and the open block that re-parses. ',
    '- a list item with some words in it\n- another item, a bit longer than the first one\n- and a third\n\n',
    '```ts\nfunction add(a: number, b: number): number {\n  return a + b;\n}\n```\n\n',
    '| col | value |\n|---|---|\n| a | 1 |\n| b | 2 |\n\n',
  ];
  let text = '';
  for (let i = 0; text.length < chunkCount * 100; i++) {
    const piece = paragraphs[i % paragraphs.length] as string;
    text += piece.endsWith('\n\n') ? piece : `${piece.repeat(3)}\n\n`;
  }
  return Array.from({ length: chunkCount }, (_, i) => text.slice(i * 100, i * 100 + 100));
}

/** A 100 KB fenced code block (1,000 lines of ~100 bytes), cut into 100-byte chunks. */
function codeBlockChunks(): string[] {
  const lines = Array.from(
    { length: 1000 },
    (_, i) => `const value${i} = compute(${i}, "line ${i}") + other(${i});`.padEnd(99, ' ') + '\n',
  );
  const text = '```ts\n' + lines.join('') + '```\n\nAfter the code.';
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += 100) chunks.push(text.slice(i, i + 100));
  return chunks;
}

interface StreamFigures {
  totalMs: number;
  longTasks: number[];
  /** When `settledBy` matched (null: it never did). */
  settledMs: number | null;
}

/** What test/bench/ui-page.js puts on the page. */
interface UiBench {
  ready(sessionId: string): boolean;
  streamIntoApp(chunks: string[], sessionId?: string, settledBy?: string): Promise<StreamFigures>;
  plainAppend(chunks: string[]): Promise<number>;
  timeNextOpen(): Promise<number>;
}

const profiling = !!(process.env['BENCH_PROFILE'] || process.env['BENCH_TRACE']);
const pageScript = join(import.meta.dirname, 'ui-page.js');

/** Calls one of the page-side benchmark functions. */
function inPage<K extends keyof UiBench>(
  page: Page,
  name: K,
  ...args: Parameters<UiBench[K]>
): Promise<Awaited<ReturnType<UiBench[K]>>> {
  return page.evaluate(
    ({ name, args }) =>
      (globalThis as unknown as { __uiBench: Record<string, (...a: unknown[]) => unknown> }).__uiBench[
        name
      ]?.(...args),
    { name, args: args as unknown[] },
  ) as Promise<Awaited<ReturnType<UiBench[K]>>>;
}

/** Clicks the long conversation and times it until its messages are painted. */
async function openLongThread(page: Page): Promise<number> {
  const timing = inPage(page, 'timeNextOpen');
  await page.getByRole('button', { name: /Long thread/ }).click();
  return timing;
}

async function main(): Promise<void> {
  const outDir = await mkdtemp(join(tmpdir(), 'agentdesk-bench-ui-'));
  await build({
    root: join(repo, 'src/renderer'),
    plugins: [react()],
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 5000, minify: !profiling },
  });
  const site = await serveRenderer(outDir);
  const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: chromiumArgs });
  const failures: string[] = [];
  try {
    const chunks = replyChunks();
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on('pageerror', (error) => console.log('page error:', error.message));
    await page.addInitScript(`globalThis.__benchHistorySize = ${historySize};`);
    await page.addInitScript({ path: pageScript });
    await page.goto(site.url);
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    await expect.poll(() => inPage(page, 'ready', 'stream')).toBe(true);

    const cdp = await page.context().newCDPSession(page);
    const slowdown = Number(process.env['BENCH_CPU_SLOWDOWN'] ?? 1);
    if (slowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    const profileTo = process.env['BENCH_PROFILE'];
    if (profileTo) await cdp.send('Profiler.enable').then(() => cdp.send('Profiler.start'));
    // Always traced: the figures say how much of the longest task was this page's work (CPU) and how
    // much was the OS running other processes, which on a shared machine can dominate.
    const traceTo = process.env['BENCH_TRACE'] || join(outDir, 'stream-trace.json');
    await browser.startTracing(page, { path: traceTo, categories: ['devtools.timeline', 'toplevel'] });
    const streamed = await inPage(page, 'streamIntoApp', chunks);
    await browser.stopTracing();
    const streamTasks = await taskTimes(traceTo);
    if (profileTo) await writeFile(profileTo, JSON.stringify((await cdp.send('Profiler.stop')).profile));
    const shown = await page.locator('[aria-label="Agent reply"]').last().innerText();

    const basePage = await browser.newPage();
    await basePage.addInitScript({ path: pageScript });
    await basePage.goto('about:blank');
    if (slowdown > 1) {
      const baseCdp = await basePage.context().newCDPSession(basePage);
      await baseCdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    }
    // Traced like the stream, so both pay the same overhead.
    await browser.startTracing(basePage, { path: join(outDir, 'base-trace.json'), categories: ['toplevel'] });
    const baseline = await inPage(basePage, 'plainAppend', chunks);
    await browser.stopTracing();
    await basePage.close();

    await page.getByRole('button', { name: /Big code block/ }).click();
    await expect.poll(() => inPage(page, 'ready', 'code')).toBe(true);
    // Long tasks count until the block is highlighted (in the worker) down to its last line.
    const lastLineHighlighted = '[aria-label="Agent reply"] pre code[data-highlighted="all"] .hljs-number';
    const codeTrace = join(outDir, 'code-trace.json');
    await browser.startTracing(page, { path: codeTrace, categories: ['devtools.timeline', 'toplevel'] });
    const code = await inPage(page, 'streamIntoApp', codeBlockChunks(), 'code', lastLineHighlighted);
    await browser.stopTracing();
    const codeTasks = await taskTimes(codeTrace);
    await expect(page.locator('[aria-label="Agent reply"] pre').last()).toContainText('line 999');
    const worstCodeTask = Math.max(0, ...code.longTasks);

    const opens: number[] = [];
    for (let round = 0; round < 3; round++) {
      await page.getByRole('button', { name: /Streaming/ }).click();
      await page.waitForTimeout(300);
      opens.push(await openLongThread(page));
    }
    await page.close();

    const worstTask = Math.max(0, ...streamed.longTasks);
    const ratio = streamed.totalMs / baseline;
    const medianOpen = opens.slice().sort((a, b) => a - b)[1] as number;
    console.log(`UI benchmark (Chromium${slowdown > 1 ? `, CPU throttled ${slowdown}x` : ''})`);
    console.log(`  stream 1 MB in ${chunkCount} chunks: ${streamed.totalMs.toFixed(0)} ms`);
    console.log(
      `  plain text append, same chunks:     ${baseline.toFixed(0)} ms  (ratio ${ratio.toFixed(2)}x, goal <= 1.2x)`,
    );
    console.log(
      `  traced: longest task ${streamTasks.longestWall.wallMs.toFixed(0)} ms of which ${streamTasks.longestWall.cpuMs.toFixed(0)} ms CPU; most CPU in one task ${streamTasks.mostCpuMs.toFixed(0)} ms`,
    );
    console.log(
      `  one 100 KB code block in 1,000 chunks: ${code.totalMs.toFixed(0)} ms, highlighted (worker) by ${code.settledMs?.toFixed(0) ?? 'never'} ms; ${code.longTasks.length} long tasks over 50 ms`,
    );
    console.log(`  opening the long thread, each round: ${opens.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    benchRow({
      id: 'ui.stream.ratio',
      what: 'streaming 1 MB in 10,000 chunks, time next to a plain text append',
      value: ratio,
      unit: '×',
      goal: '<= 1.2×',
      ok: ratio <= 1.2,
    });
    benchRow({
      id: 'ui.stream.worstTask',
      what: 'streaming 1 MB in 10,000 chunks, worst long task',
      value: worstTask,
      unit: 'ms',
      goal: 'none over 50 ms',
      ok: worstTask <= 50,
      shown: `${worstTask.toFixed(0)} ms (${streamed.longTasks.length} over 50 ms)`,
    });
    benchRow({
      id: 'ui.code.worstTask',
      what: 'one 100 KB code block in 1,000 chunks, worst long task',
      value: worstCodeTask,
      unit: 'ms',
      goal: 'none over 50 ms',
      ok: worstCodeTask <= 50 && code.settledMs !== null,
      shown: `${worstCodeTask.toFixed(0)} ms (${code.longTasks.length} over 50 ms${code.settledMs === null ? ', never highlighted' : ''})`,
    });
    // The page's own work per task (thread time from the trace): what the app can change, whatever
    // else the machine runs. The wall-time rows above are the issue's measure.
    benchRow({
      id: 'ui.stream.mostCpu',
      what: 'streaming 1 MB in 10,000 chunks, most CPU in one task (trace)',
      value: streamTasks.mostCpuMs,
      unit: 'ms',
      goal: '< 50 ms',
      ok: streamTasks.mostCpuMs < 50,
    });
    benchRow({
      id: 'ui.code.mostCpu',
      what: 'one 100 KB code block in 1,000 chunks, most CPU in one task (trace)',
      value: codeTasks.mostCpuMs,
      unit: 'ms',
      goal: '< 50 ms',
      ok: codeTasks.mostCpuMs < 50,
    });
    benchRow({
      id: 'ui.open.500k',
      what: `opening a stored conversation of ${historySize.toLocaleString('en')} messages, to first paint (median of 3)`,
      value: medianOpen,
      unit: 'ms',
      goal: '< 150 ms',
      ok: medianOpen < 150,
    });
    if (!shown.includes('Streaming replies must stay smooth'))
      failures.push('the streamed reply is not on screen');
  } finally {
    await browser.close();
    await site.close();
    await rm(outDir, { recursive: true, force: true });
  }
  if (failures.length > 0) console.log(`  ${failures.join('; ')}`);
  process.exitCode = failures.length > 0 || anyMissed() ? 1 : 0;
}

await main();
