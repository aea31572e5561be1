import { readFile } from 'node:fs/promises';

/** The longest tasks of the page's main thread in a Chromium trace: wall time, and the CPU it really had. */
export interface TaskTimes {
  /** The task longest on the clock, with its CPU time (the rest is the OS running other processes). */
  longestWall: { wallMs: number; cpuMs: number };
  /** The most CPU any one task used. */
  mostCpuMs: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * Reads a trace written with the `toplevel` category. On a loaded machine a task's wall time includes
 * the time the OS gave the CPU to other processes; its thread time (`tdur`) is the work this page did.
 */
export async function taskTimes(traceFile: string): Promise<TaskTimes> {
  const parsed = JSON.parse(await readFile(traceFile, 'utf8')) as
    { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const mine = events.filter((e) => e.tid === main?.tid && e.ph === 'X');
  // The benchmark's own DevTools messages (Playwright's evaluate carrying the 1 MB of chunks) are not the app's.
  const harness = mine.filter((e) => e.name === 'Receive mojo message');
  const tasks = mine.filter(
    (e) =>
      e.name === 'ThreadControllerImpl::RunTask' &&
      !harness.some((h) => h.ts >= e.ts && (h.dur ?? 0) > 0.9 * (e.dur ?? 0)),
  );
  let longest = { wallMs: 0, cpuMs: 0 };
  let mostCpuMs = 0;
  for (const task of tasks) {
    const wallMs = (task.dur ?? 0) / 1000;
    // Thread time is measured apart from the clock and may overshoot a short task's wall time a little.
    const cpuMs = Math.min(wallMs, (task.tdur ?? 0) / 1000);
    if (wallMs > longest.wallMs) longest = { wallMs, cpuMs };
    mostCpuMs = Math.max(mostCpuMs, cpuMs);
  }
  return { longestWall: longest, mostCpuMs };
}
