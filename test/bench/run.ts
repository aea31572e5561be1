/**
 * `npm run bench [-- options]`: every benchmark, then one table of every figure with its goal and
 * ok or MISS.
 *   --against <git-ref>  also build <git-ref> in a temporary git worktree and run each benchmark on
 *                        both revisions, alternating, so a change is judged against its parent on the
 *                        same noisy machine; the table adds the other figure and the ratio (this ÷ that).
 *                        Both revisions run this revision's measuring code (test/bench/), so only the
 *                        product differs.
 *   --rounds <n>         run each benchmark n times per revision (the table shows medians); default 1
 *   --only <a,b>         only these benchmarks (cli, ui, first-screen, idle-window, memory, service, turns, model,
 *                       model-screen, cluster, sync, sync-100k)
 *   --json <file>        write the figures there as JSON
 * Exits 1 when a goal is missed on this revision.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchRow } from './bench-row';
import { formatTable, tableRows } from './bench-table';

const repo = resolve(import.meta.dirname, '../..');

/** Each benchmark: a command run in the revision's folder. Heaviest last. */
const BENCHES: Record<string, string[]> = {
  cli: ['tsx', 'test/bench/cli.ts'],
  ui: ['tsx', 'test/bench/ui.ts'],
  'first-screen': ['tsx', 'test/bench/first-screen.ts'],
  'idle-window': ['tsx', 'test/bench/idle-window.ts'],
  memory: ['tsx', 'test/bench/memory.ts'],
  service: ['tsx', 'test/bench/service.ts'],
  turns: ['tsx', 'test/bench/turns.ts'],
  model: ['tsx', 'test/bench/model-agent.ts'],
  'model-screen': ['tsx', 'test/bench/model-screen.ts'],
  cluster: ['tsx', 'test/bench/cluster.ts'],
  sync: ['tsx', 'test/bench/sync.ts'],
  'sync-100k': ['tsx', 'test/bench/sync.ts', '--only', 'watch', '--watch-files', '100000'],
};

const { values: args } = parseArgs({
  options: {
    against: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    only: { type: 'string' },
    json: { type: 'string' },
  },
});

interface Side {
  label: string;
  dir: string;
  rows: BenchRow[];
  failed: string[];
}

function git(...gitArgs: string[]): string {
  const run = spawnSync('git', gitArgs, { cwd: repo, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${gitArgs.join(' ')}: ${run.stderr.trim()}`);
  return run.stdout.trim();
}

function build(side: Side): void {
  console.log(`\n== building ${side.label}`);
  const run = spawnSync('npm', ['run', 'build'], { cwd: side.dir, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`npm run build failed in ${side.label}`);
}

/** A worktree of `ref` sharing this checkout's node_modules, measured by this revision's benches. */
function checkout(ref: string, scratch: string): Side {
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = join(scratch, 'against');
  git('worktree', 'add', '--detach', dir, commit);
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
  cpSync(join(repo, 'test/bench'), join(dir, 'test/bench'), { recursive: true });
  return { label: `${ref} (${commit.slice(0, 7)})`, dir, rows: [], failed: [] };
}

async function runBench(name: string, side: Side, scratch: string, round: number): Promise<void> {
  const [command, ...rest] = BENCHES[name]!;
  const results = join(scratch, `${name}-${side === sides[0] ? 'here' : 'there'}-${round}.jsonl`);
  console.log(`\n== ${name} on ${side.label}${rounds > 1 ? `, round ${round + 1}` : ''} (load ${load()})`);
  const child = spawn('npx', [command!, ...rest], {
    cwd: side.dir,
    stdio: 'inherit',
    env: { ...process.env, BENCH_RESULTS: results },
  });
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  const rows = existsSync(results)
    ? readFileSync(results, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as BenchRow)
    : [];
  side.rows.push(...rows);
  if (rows.length === 0) side.failed.push(`${name} (exit ${code}, no figures)`);
}

const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const rounds = Math.max(1, Number(args.rounds) || 1);
const chosen = args.only ? args.only.split(',').map((n) => n.trim()) : Object.keys(BENCHES);
const unknown = chosen.filter((name) => !BENCHES[name]);
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; there are ${Object.keys(BENCHES).join(', ')}.`);
  process.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), 'agentdesk-bench-'));
const here: Side = { label: 'this tree', dir: repo, rows: [], failed: [] };
const sides: Side[] = [here];
try {
  if (args.against) sides.push(checkout(args.against, scratch));
  for (const side of sides) build(side);
  for (const name of chosen) {
    for (let round = 0; round < rounds; round++) {
      // Alternating which goes first, so neither always meets the machine in the same state.
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) await runBench(name, side, scratch, round);
    }
  }
} finally {
  if (sides[1]) {
    spawnSync('git', ['worktree', 'remove', '--force', sides[1].dir], { cwd: repo });
  }
  rmSync(scratch, { recursive: true, force: true });
}

const there = sides[1];
const table = tableRows(here.rows, there?.rows);
console.log(`\n== figures (load average now ${load()}; ${rounds} round${rounds > 1 ? 's, medians' : ''})\n`);
console.log(formatTable(table, there?.label));
for (const side of sides)
  for (const failed of side.failed) console.log(`no figures from ${failed} on ${side.label}`);
if (args.json) {
  writeFileSync(
    args.json,
    `${JSON.stringify({ at: new Date().toISOString(), against: there?.label ?? null, rounds, rows: table }, null, 2)}\n`,
  );
  console.log(`figures written to ${args.json}`);
}
process.exitCode = table.some((row) => row.here && !row.here.ok) || here.failed.length > 0 ? 1 : 0;
