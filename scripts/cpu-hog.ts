/**
 * Keeps every core busy, the way a contributor's or CI's machine often is, so `npm test --
 * --stress` shows the tests that only pass on a quiet machine. One Node busy loop per core.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';

export interface CpuHog {
  count: number;
  stop(): void;
}

export function startCpuHog(count = availableParallelism()): CpuHog {
  const children: ChildProcess[] = [];
  for (let i = 0; i < count; i += 1) {
    children.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  }
  const stop = (): void => {
    for (const child of children) child.kill('SIGKILL');
  };
  // The loops must not outlive the run, however it ends.
  process.once('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stop();
      process.exit(1);
    });
  }
  return { count, stop };
}
