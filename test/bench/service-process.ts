/**
 * The local service for `bench:service`, started as `npm run service` starts it (scripts/service.js: the
 * built out/node/service.js when the build matches the sources, the TypeScript under tsx otherwise), in its
 * own process, optionally pinned to some CPUs with taskset. It runs with --trace-gc so the bench can tell
 * the longest garbage-collection pause of a window; its request log is drained.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');
const script = join(repo, 'scripts/service.js');

/** `taskset -c <cpus>` before a command when there is taskset and a CPU list; the command alone otherwise. */
export function pinned(cpus: string | null, command: string[]): string[] {
  return cpus !== null && existsSync('/usr/bin/taskset')
    ? ['/usr/bin/taskset', '-c', cpus, ...command]
    : command;
}

export interface ServiceProcess {
  url: string;
  pid: number;
  /** Starts counting garbage-collection pauses. */
  watchGc(): void;
  /** Stops counting them and gives the pauses (ms) since `watchGc`. */
  gcPauses(): number[];
  stop(): Promise<void>;
}

// `[pid:0x…]  5155 ms: Scavenge 8.2 (9.0) -> 8.0 (10.0) MB, 0.49 / 0.00 ms …`: the pause is the first figure.
const GC_LINE = /: (?:Scavenge|Mark-Compact|Mark-Sweep|Minor Mark-Sweep)\b.* MB, ([\d.]+) \/ [\d.]+ ms/;

export async function startServiceProcess(
  dataDir: string,
  account: { email: string; password: string },
  cpus: string | null,
): Promise<ServiceProcess> {
  await run(process.execPath, [
    script,
    'user',
    'add',
    '--email',
    account.email,
    '--password',
    account.password,
    '--data',
    dataDir,
  ]);
  const [command, ...args] = pinned(cpus, [
    process.execPath,
    '--trace-gc',
    script,
    '--port',
    '0',
    '--data',
    dataDir,
  ]);
  const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  let pauses: number[] | null = null;
  const url = await new Promise<string>((done, fail) => {
    lines.on('line', (line) => {
      if (line.startsWith('listening on ')) done(line.slice('listening on '.length));
      const pause = GC_LINE.exec(line)?.[1];
      if (pause !== undefined) pauses?.push(Number(pause));
    });
    child.once('exit', (code) => fail(new Error(`service exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid as number,
    watchGc: () => {
      pauses = [];
    },
    gcPauses: () => {
      const seen = pauses ?? [];
      pauses = null;
      return seen;
    },
    stop: () =>
      new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** CPU seconds of a process and its descendants, from /proc (utime + stime, 100 ticks per second). */
export async function treeCpuSeconds(pid: number): Promise<number | null> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
    let total = (Number(fields[11]) + Number(fields[12])) / 100;
    const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')).trim();
    for (const child of children ? children.split(' ') : [])
      total += (await treeCpuSeconds(Number(child))) ?? 0;
    return total;
  } catch {
    return null;
  }
}
