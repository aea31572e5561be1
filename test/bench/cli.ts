/**
 * `npx tsx test/bench/cli.ts`: how fast the programs start, as a person starts them.
 *  1. `agentdesk --help` (bin/agentdesk.js, the built CLI): wall time and peak RSS, median of 15
 *     runs. Goals: < 150 ms, < 60 MB. Bare `node -e 0` is printed beside it: the floor on this machine.
 *  1b. `agentdesk sync --help`: what every sync start loads (the API client and the sync engine, not the
 *     local service, which is loaded only for "this computer"). Goals: < 500 ms, < 100 MB (it was 565 ms
 *     and 111 MB while the sync command loaded the service at its start).
 *  2. `npm run web` when nothing changed: time to the printed address, median of 3 runs after one
 *     that builds if needed. Goal: < 1.5 s.
 * Run it after `npm run build` (`npm run bench` builds first). Prints figures; exits 1 when a goal is missed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { benchRow } from './bench-row';

const repo = resolve(import.meta.dirname, '../..');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const timeCommand = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/** Wall time of one run, and its peak RSS in MB when GNU time is there to read it. */
function runOnce(command: string, args: string[]): { ms: number; rssMb: number | null } {
  const started = performance.now();
  const run = timeCommand
    ? spawnSync(timeCommand, ['-f', 'peak-rss-kb %M', command, ...args], { cwd: repo, encoding: 'utf8' })
    : spawnSync(command, args, { cwd: repo, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${run.stderr}`);
  const kb = /peak-rss-kb (\d+)/.exec(run.stderr ?? '')?.[1];
  return { ms, rssMb: kb ? Number(kb) / 1024 : null };
}

function startupOf(args: string[], runs: number): { ms: number; rssMb: number | null } {
  runOnce(process.execPath, args); // warms the file cache
  const samples = Array.from({ length: runs }, () => runOnce(process.execPath, args));
  const rss = samples.map((s) => s.rssMb).filter((mb): mb is number => mb !== null);
  return { ms: median(samples.map((s) => s.ms)), rssMb: rss.length ? median(rss) : null };
}

/** `npm run web` until it prints the address; then it is stopped. */
async function webToAddress(dataDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn('npm', ['run', 'web', '--', '--data', dataDir, '--port', '0'], {
    cwd: repo,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOME: dataDir },
  });
  let output = '';
  try {
    return await new Promise<number>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`npm run web printed no address:\n${output}`)), 180_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('#key=')) {
          clearTimeout(timer);
          done(performance.now() - started);
        }
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', () => fail(new Error(`npm run web ended:\n${output}`)));
    });
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

const bin = join(repo, 'bin/agentdesk.js');
const node = startupOf(['-e', '0'], 15);
const help = startupOf([bin, '--help'], 15);
console.log(
  `bare node -e 0 here: ${node.ms.toFixed(0)} ms, ${node.rssMb?.toFixed(0) ?? '?'} MB (the floor of any Node program)`,
);

/** The wall-time and peak-RSS rows of one command's start. */
function startupRows(
  id: string,
  command: string,
  figures: { ms: number; rssMb: number | null },
  goals: { ms: number; mb: number },
) {
  benchRow({
    id: `${id}.wall`,
    what: `\`${command}\`, wall time`,
    value: figures.ms,
    unit: 'ms',
    goal: `< ${goals.ms} ms`,
    ok: figures.ms < goals.ms,
  });
  benchRow({
    id: `${id}.rss`,
    what: `\`${command}\`, peak RSS`,
    value: figures.rssMb,
    unit: 'MB',
    goal: `< ${goals.mb} MB`,
    ok: figures.rssMb !== null && figures.rssMb < goals.mb,
  });
}
startupRows('cli.help', 'agentdesk --help', help, { ms: 150, mb: 60 });
startupRows('cli.sync-help', 'agentdesk sync --help', startupOf([bin, 'sync', '--help'], 7), {
  ms: 500,
  mb: 100,
});

const scratch = await mkdtemp(join(tmpdir(), 'agentdesk-bench-web-'));
try {
  const first = await webToAddress(join(scratch, 'first'));
  const again = [];
  for (let i = 0; i < 3; i++) again.push(await webToAddress(join(scratch, `run-${i}`)));
  const web = median(again);
  console.log(`npm run web, first run (builds if the sources changed): ${first.toFixed(0)} ms`);
  benchRow({
    id: 'web.start.unchanged',
    what: '`npm run web` to the printed address, nothing changed',
    value: web,
    unit: 'ms',
    goal: '< 1500 ms',
    ok: web < 1500,
  });
} finally {
  await rm(scratch, { recursive: true, force: true });
}
