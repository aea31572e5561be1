import { readdir, readFile } from 'node:fs/promises';

/**
 * What bounds a latency on a shared machine: how long a process tree ran, and how long its threads sat ready
 * but waiting for a CPU (/proc/<pid>/task/<tid>/schedstat: run ns, wait ns, slices), plus the kernel's CPU
 * pressure (the share of time some task waited for a CPU). Linux only: null elsewhere.
 */
export interface CpuTimes {
  runNs: number;
  waitNs: number;
  /** /proc/pressure/cpu `some` total, µs; null without PSI. */
  pressureUs: number | null;
  at: number;
}

/** A thread's schedstat: ns on a CPU, ns ready but waiting for one (then its time slices). */
export function parseSchedstat(text: string): { runNs: number; waitNs: number } {
  const [runNs = 0, waitNs = 0] = text.split(' ').map(Number);
  return { runNs, waitNs };
}

async function treeSched(pid: number): Promise<{ runNs: number; waitNs: number }> {
  let runNs = 0;
  let waitNs = 0;
  for (const task of await readdir(`/proc/${pid}/task`)) {
    const thread = parseSchedstat(await readFile(`/proc/${pid}/task/${task}/schedstat`, 'utf8'));
    runNs += thread.runNs;
    waitNs += thread.waitNs;
  }
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')).trim();
  for (const child of children ? children.split(' ') : []) {
    const below = await treeSched(Number(child));
    runNs += below.runNs;
    waitNs += below.waitNs;
  }
  return { runNs, waitNs };
}

export async function cpuTimes(pid: number): Promise<CpuTimes | null> {
  try {
    const sched = await treeSched(pid);
    const psi = await readFile('/proc/pressure/cpu', 'utf8').catch(() => '');
    const total = /^some .*total=(\d+)/m.exec(psi)?.[1];
    return { ...sched, pressureUs: total === undefined ? null : Number(total), at: performance.now() };
  } catch {
    return null;
  }
}

/** "ran 150 µs/req, waited 2.1 ms/req for a CPU; some task waited for a CPU 99% of the time". */
export function cpuWaitLine(before: CpuTimes | null, after: CpuTimes | null, requests: number): string {
  if (!before || !after || requests === 0) return '';
  const ran = (after.runNs - before.runNs) / 1e3 / requests;
  const waited = (after.waitNs - before.waitNs) / 1e3 / requests;
  const wallUs = (after.at - before.at) * 1000;
  const pressure =
    before.pressureUs === null || after.pressureUs === null
      ? ''
      : `; some task on this machine waited for a CPU ${Math.round(((after.pressureUs - before.pressureUs) / wallUs) * 100)}% of the time`;
  return `service ran ${ran.toFixed(0)} µs/req and waited ${(waited / 1000).toFixed(2)} ms/req for a CPU${pressure}`;
}
