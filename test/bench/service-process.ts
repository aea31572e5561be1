/**
 * The local service for `bench:service`, started as `npm run service` starts it (scripts/service.js: the
 * built out/node/service.js when the build matches the sources, the TypeScript under tsx otherwise), in its
 * own process, optionally pinned to some CPUs with taskset. It runs with --trace-gc; the bench reads the
 * garbage-collection pauses and each request's time inside the service (its log line) over a window.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');
// A revision older than scripts/service.js (bench --against) ran its service from the sources under tsx.
const launcher = existsSync(join(repo, 'scripts/service.js'))
  ? [join(repo, 'scripts/service.js')]
  : ['--import', 'tsx', join(repo, 'src/service/cli.ts')];

/** `taskset -c <cpus>` before a command when there is taskset and a CPU list; the command alone otherwise. */
export function pinned(cpus: string | null, command: string[]): string[] {
  return cpus !== null && existsSync('/usr/bin/taskset')
    ? ['/usr/bin/taskset', '-c', cpus, ...command]
    : command;
}

export interface ServiceWindow {
  gcPauses: number[];
  /** Each request's time inside the service, from its log line (arrival in JavaScript to answer, 0.1 ms steps). */
  handled: number[];
}

export interface ServiceProcess {
  url: string;
  pid: number;
  /** Starts a window: garbage-collection pauses and request-log durations are kept from now on. */
  startWindow(): void;
  /** Ends the window and gives what it kept, in ms. */
  endWindow(): ServiceWindow;
  stop(): Promise<void>;
}

// `[pid:0x…]  5155 ms: Scavenge 8.2 (9.0) -> 8.0 (10.0) MB, 0.49 / 0.00 ms …`: the pause is the first figure.
const GC_LINE = /: (?:Scavenge|Mark-Compact|Mark-Sweep|Minor Mark-Sweep)\b.* MB, ([\d.]+) \/ [\d.]+ ms/;
// `GET /api/v2/me/agents 200 0.3ms` (src/service/http/request-log.ts).
const REQUEST_LINE = /^[A-Z]+ \S+ \d{3} ([\d.]+)ms$/;

export async function startServiceProcess(
  dataDir: string,
  account: { email: string; password: string },
  cpus: string | null,
  /** More Node flags for the service (`--cpu-prof` ...). */
  nodeFlags: string[] = [],
): Promise<ServiceProcess> {
  await run(process.execPath, [
    ...launcher,
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
    ...nodeFlags,
    ...launcher,
    '--port',
    '0',
    '--data',
    dataDir,
  ]);
  const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  let window: ServiceWindow | null = null;
  const url = await new Promise<string>((done, fail) => {
    lines.on('line', (line) => {
      if (line.startsWith('listening on ')) done(line.slice('listening on '.length));
      if (!window) return;
      const handled = REQUEST_LINE.exec(line)?.[1];
      if (handled !== undefined) window.handled.push(Number(handled));
      const pause = GC_LINE.exec(line)?.[1];
      if (pause !== undefined) window.gcPauses.push(Number(pause));
    });
    child.once('exit', (code) => fail(new Error(`service exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid as number,
    startWindow: () => {
      window = { gcPauses: [], handled: [] };
    },
    endWindow: () => {
      const kept = window ?? { gcPauses: [], handled: [] };
      window = null;
      return kept;
    },
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
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
