/**
 * `npm run bench:service`: the local service under load on loopback.
 *  - authenticated GET /api/v2/me/agents: top throughput (autocannon, 10 connections); then 1,000 evenly
 *    spaced requests a second from an open-loop generator in its own process (test/bench/paced-load.ts;
 *    autocannon's fixed rate sends each second's requests in one burst), goal p99 < 5 ms: first with the
 *    generator and the service sharing the CPUs, then with the service on CPU 0 and the generator on CPU 1;
 *  - POST /oauth2/token with grant_type=refresh_token (every request rotates its family's token).
 * The service runs as `npm run service` does (built code when fresh, its own process, one log line per
 * request). Next to each 1,000 rps figure: the service's CPU time and its wait for a CPU per request, the
 * machine's CPU pressure, the service's GC pauses and the load average, which say what bounds the p99.
 * Prints figures; exits 1 when a goal is missed.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { signIn } from '../support/local-service';
import { startBareServer } from './bare-server';
import { benchRow } from './bench-row';
import { profileSummary } from './cpu-profile';
import { cpuTimes, cpuWaitLine } from './cpu-wait';
import { pacedLoadProcess, percentiles, type PacedResult } from './paced-load';
import { startServiceProcess, treeCpuSeconds, type ServiceWindow } from './service-process';

const run = promisify(execFile);

interface Histogram {
  average: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}
interface Result {
  requests: Histogram & { total: number };
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
}
interface RequestSpec {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: RequestSpec) => RequestSpec;
  onResponse?: (status: number, body: string) => void;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  overallRate?: number;
  pipelining?: number;
  method?: string;
  headers?: Record<string, string>;
  requests?: RequestSpec[];
}) => Promise<Result>;

// autocannon ships no types; its API is described above.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
const DURATION_S = Number(process.env['BENCH_SECONDS'] ?? 10);
const REFRESH_CONNECTIONS = 4;
// Enough that a request rarely waits for a free connection even when the machine makes answers slow.
const PACED_CONNECTIONS = 64;
const account = { email: 'bench@example.test', password: 'bench password 123' };
/** Two CPUs or more and taskset: the service on the first, the load generator on the second. */
const canSeparate = availableParallelism() >= 2 && existsSync('/usr/bin/taskset');

/** The separated layout: the server under test on the first CPU, the load generator on the second. */
const SERVER_CPU = '0';
const GENERATOR_CPU = '1';

/** Moves every thread of a running process onto `cpus` (taskset -a -p). */
async function pinProcess(pid: number, cpus: string): Promise<void> {
  await run('/usr/bin/taskset', ['-a', '-p', '-c', cpus, String(pid)]);
}

function row(name: string, result: Result, cpu: number | null): string {
  const failures = result.non2xx + result.errors + result.timeouts;
  const perRequest = cpu === null ? '' : `${((cpu / result.requests.total) * 1e6).toFixed(0)} µs CPU/req`;
  return [
    name.padEnd(44),
    `${Math.round(result.requests.average)} req/s`.padStart(12),
    `p50 ${result.latency.p50.toFixed(2)} ms`.padStart(14),
    `p99 ${result.latency.p99.toFixed(2)} ms`.padStart(14),
    `max ${result.latency.max.toFixed(1)} ms`.padStart(14),
    `${result.requests.total} requests`.padStart(18),
    perRequest.padStart(20),
    failures ? `  ${failures} FAILED` : '',
  ].join('');
}

/** A paced load's figures, and the CPU time per request, µs, of the server it loaded (null off Linux). */
interface PacedFigures {
  result: PacedResult;
  cpuUs: number | null;
}

function floorLine({ result, cpuUs }: PacedFigures): string {
  const f = result.latency;
  return (
    `  the same load against a bare node:http server with the same answer (the floor): p50 ${f.p50.toFixed(2)} ms, ` +
    `p90 ${f.p90.toFixed(2)}, p99 ${f.p99.toFixed(2)}, max ${f.max.toFixed(1)} ms; ` +
    (cpuUs === null ? '' : `bare server CPU ${cpuUs.toFixed(0)} µs/req, `) +
    `generator CPU ${result.generatorCpuUs.toFixed(0)} µs/req`
  );
}

interface Paced {
  result: PacedResult;
  /** The service's CPU time per request, µs (null off Linux). */
  cpuUs: number | null;
  /** Its CPU time and wait for a CPU per request, and the machine's CPU pressure (cpu-wait.ts). */
  bound: string;
  inside: ServiceWindow;
}

/** The fixed-rate figures of one layout, and what bounded them. */
function pacedLines(name: string, { result, cpuUs, bound, inside }: Paced) {
  const l = result.latency;
  const failures = result.failures ? `, ${result.failures} FAILED` : '';
  const handled = percentiles(Float64Array.from(inside.handled));
  console.log(
    `${name}: p50 ${l.p50.toFixed(2)} ms, p90 ${l.p90.toFixed(2)}, p99 ${l.p99.toFixed(2)}, p99.9 ${l.p999.toFixed(2)}, ` +
      `max ${l.max.toFixed(1)} ms from when each request was due${failures}`,
  );
  console.log(
    `  p99 ${result.service.p99.toFixed(2)} ms from when it went out (one went out ${result.worstSendDelay.toFixed(1)} ms ` +
      `late at worst); inside the service (its log) p99 ${handled.p99.toFixed(1)} ms, max ${handled.max.toFixed(1)} ms`,
  );
  const cpu = cpuUs === null ? '' : `service CPU ${cpuUs.toFixed(0)} µs/req, `;
  const gc = inside.gcPauses;
  const longestGc = gc.length ? `; ${gc.length} GC pauses, longest ${Math.max(...gc).toFixed(1)} ms` : '';
  console.log(
    `  ${cpu}generator CPU ${result.generatorCpuUs.toFixed(0)} µs/req${longestGc}; load average ${load()}`,
  );
  if (bound) console.log(`  ${bound}`);
}

/** Microseconds of the monotonic clock, as V8 stamps a CPU profile's samples in another process. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Where the service's CPU time goes at 1,000 rps: a service of its own started with `--cpu-prof`, signed
 * in and warmed up like the measured one, under the same paced load for 5 s; the profile is read only
 * over that load (not start-up or warm-up). Not the measured run: the profiler costs the service CPU.
 */
async function profiledRun(): Promise<string[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-bench-profile-'));
  const profiles = join(dataDir, 'profiles');
  const service = await startServiceProcess(dataDir, account, null, [
    '--cpu-prof',
    `--cpu-prof-dir=${profiles}`,
  ]);
  try {
    const token = (await signIn({ url: service.url }, account)).access_token;
    const agents = `${service.url}/api/v2/me/agents`;
    const authorized = { Authorization: `Bearer ${token}` };
    await autocannon({ url: agents, connections: 4, duration: 2, headers: authorized });
    const fromUs = monotonicUs();
    await pacedLoadProcess(
      { url: agents, headers: authorized, rate: 1000, durationS: 5, connections: PACED_CONNECTIONS },
      null,
    );
    const toUs = monotonicUs();
    await service.stop();
    const [file] = (await readdir(profiles)).filter((name) => name.endsWith('.cpuprofile'));
    return file
      ? profileSummary(join(profiles, file), { fromUs, toUs })
      : ['(the service wrote no CPU profile)'];
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main(): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-bench-'));
  const service = await startServiceProcess(dataDir, account, null);
  try {
    const endpoint = { url: service.url };
    const reader = await signIn(endpoint, account);
    const authorized = { Authorization: `Bearer ${reader.access_token}` };
    const agents = `${service.url}/api/v2/me/agents`;
    // Warm-up: enrols the first agent, warms statement caches and the JIT.
    await autocannon({ url: agents, connections: 4, duration: 2, headers: authorized });

    /** Runs one load and the CPU it cost the process `pid` (the service unless said). */
    const measured = async <R>(work: () => Promise<R>, pid = service.pid): Promise<[R, number | null]> => {
      const before = await treeCpuSeconds(pid);
      const result = await work();
      const after = await treeCpuSeconds(pid);
      return [result, before === null || after === null ? null : after - before];
    };

    const top = await measured(() =>
      autocannon({ url: agents, connections: 10, duration: DURATION_S, headers: authorized }),
    );

    /**
     * 1,000 evenly spaced GETs of `url` a second from a generator in its own process (test/bench/paced-load.ts),
     * and the CPU they cost the server `pid`, per request.
     */
    const pacedAt = async (url: string, pid: number, generatorCpus: string | null): Promise<PacedFigures> => {
      const [result, cpu] = await measured(
        () =>
          pacedLoadProcess(
            { url, headers: authorized, rate: 1000, durationS: DURATION_S, connections: PACED_CONNECTIONS },
            generatorCpus,
          ),
        pid,
      );
      return { result, cpuUs: cpu === null ? null : (cpu / result.requests) * 1e6 };
    };
    /** The paced load on the service, with what bounded it. */
    const paced = async (generatorCpus: string | null): Promise<Paced> => {
      const scheduled = await cpuTimes(service.pid);
      service.startWindow();
      const { result, cpuUs } = await pacedAt(agents, service.pid, generatorCpus);
      const inside = service.endWindow();
      const bound = cpuWaitLine(scheduled, await cpuTimes(service.pid), result.requests);
      return { result, cpuUs, bound, inside };
    };
    const shared = await paced(null);
    // The floor: the same load against a bare node:http server answering the same body (bare-server.ts),
    // laid out as the service's run it is read against (pinned: the server on CPU 0, the generator on CPU 1).
    const answer = await (await fetch(agents, { headers: authorized })).text();
    const floorRun = async (pinned: boolean): Promise<PacedFigures> => {
      const bare = await startBareServer(answer);
      if (pinned) await pinProcess(bare.pid, SERVER_CPU);
      const floor = await pacedAt(`${bare.url}/`, bare.pid, pinned ? GENERATOR_CPU : null);
      bare.stop();
      return floor;
    };
    const floor = await floorRun(false);
    let separate: Paced | null = null;
    let separateFloor: PacedFigures | null = null;
    if (canSeparate) {
      await pinProcess(service.pid, SERVER_CPU);
      separate = await paced(GENERATOR_CPU);
      await pinProcess(service.pid, `0-${availableParallelism() - 1}`);
      separateFloor = await floorRun(true);
    }

    // One token family per connection: a request takes a live refresh token, its answer gives the next one back.
    const pool: string[] = [];
    for (let i = 0; i < REFRESH_CONNECTIONS; i++) pool.push((await signIn(endpoint, account)).refresh_token);
    let broken = 0;
    const refresh = await measured(() =>
      autocannon({
        url: `${service.url}/oauth2/token`,
        connections: REFRESH_CONNECTIONS,
        duration: DURATION_S,
        requests: [
          {
            method: 'POST',
            path: '/oauth2/token',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            setupRequest: (request) => ({
              ...request,
              body: new URLSearchParams({
                grant_type: 'refresh_token',
                client_id: 'agentdesk-desktop',
                refresh_token: pool.shift() ?? 'pool-empty',
              }).toString(),
            }),
            onResponse: (status, body) => {
              if (status === 200) pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
              else broken++;
            },
          },
        ],
      }),
    );

    console.log(`\nLocal service on ${service.url}, ${DURATION_S} s per run, Node ${process.version}\n`);
    console.log(row('GET /api/v2/me/agents (10 conns, max rate)', ...top));
    console.log(row(`POST /oauth2/token refresh (${REFRESH_CONNECTIONS} conns)`, ...refresh));
    console.log('');
    pacedLines('GET /api/v2/me/agents at 1,000 rps, generator and service sharing the CPUs', shared);
    console.log(floorLine(floor));
    if (separate) {
      pacedLines('GET /api/v2/me/agents at 1,000 rps, service on CPU 0, generator on CPU 1', separate);
      if (separateFloor) console.log(floorLine(separateFloor));
    } else
      console.log('(one CPU or no taskset: the service and the generator were not put on CPUs of their own)');
    console.log('');

    const goalRow = (id: string, what: string, result: PacedResult) => {
      const ok = result.latency.p99 < 5 && result.failures === 0;
      benchRow({
        id,
        what,
        value: result.latency.p99,
        unit: 'ms',
        goal: '< 5 ms, no errors',
        ok,
        ...(result.failures
          ? { shown: `${result.latency.p99.toFixed(2)} ms, ${result.failures} errors` }
          : {}),
      });
      return ok;
    };
    let goalMet = goalRow(
      'service.get.1000rps.p99',
      'service, authenticated GET at 1,000 rps, p99 (load generator in its own process)',
      shared.result,
    );
    if (separate)
      goalMet =
        goalRow(
          'service.get.1000rps.p99.separated',
          'service, authenticated GET at 1,000 rps, p99 (service and load generator on CPUs of their own)',
          separate.result,
        ) && goalMet;
    if (broken > 0) console.log(`refresh chain broke ${broken} times`);
    if (process.env['BENCH_PROFILE'] !== '0') {
      console.log('');
      for (const line of await profiledRun()) console.log(line);
    }
    return goalMet && broken === 0 ? 0 : 1;
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
