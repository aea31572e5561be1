import { readFileSync } from 'node:fs';
import { parseSchedstat } from '../bench/cpu-wait';

/**
 * The CPU time this thread alone has run, in ms (Linux: /proc/thread-self/schedstat, in ns). Unlike a
 * wall-clock gap it does not grow while a busy machine leaves the process waiting for a core, and unlike
 * process.cpuUsage() it leaves out the process's other threads.
 */
export function thisThreadCpuMs(): number {
  return parseSchedstat(readFileSync('/proc/thread-self/schedstat', 'utf8')).runNs / 1e6;
}
