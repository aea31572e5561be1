/**
 * `npm test`: the one test command, the same on a fresh clone, a developer's machine and CI.
 * It makes sure the machine has what the tests need (installing it where it may), builds what
 * the tests load, then runs every stage and prints each stage's duration, the slowest files
 * and the runners' summary lines. It runs every stage it can even after a failure, so one red
 * line does not hide the rest, and exits non-zero when anything failed.
 *
 *   npm test                              everything
 *   npm test -- unit e2e                  only the named stages (check, build, unit, e2e, soak)
 *   npm test -- test/e2e/chat.spec.ts     only these test files (and the build e2e needs)
 *   npm test -- --stress                  everything with every core kept busy by a CPU hog,
 *                                         each e2e test run 5 times (--repeat-each=N to change),
 *                                         a Playwright trace kept for every failure
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startCpuHog } from './cpu-hog';
import { ensureSystemPackages } from './test-prerequisites';
import { readFileTimes, slowestFilesLines, tooLongLine } from './test-timings';

interface Stage {
  name: string;
  /** npm scripts run in order; the stage fails at the first that fails. */
  scripts: string[];
  /**
   * The scripts are independent and each keeps one core busy (tsc, eslint, depcruise): they run side
   * by side instead, each one's output printed whole when it ends, and the stage fails if any fails.
   */
  together?: boolean;
  /** A stage that cannot run without another one having passed. */
  needs?: string;
}

const stages: Stage[] = [
  { name: 'check', scripts: ['typecheck', 'lint', 'deps'], together: true },
  { name: 'build', scripts: ['build'] },
  { name: 'unit', scripts: ['test:unit'] },
  { name: 'e2e', scripts: ['test:e2e'], needs: 'build' },
  // Issue 38's soak, in its 2-minute version (`npm run soak` alone runs 30): restarts, sync and turns at once.
  { name: 'soak', scripts: ['soak'], needs: 'build' },
];

interface Outcome {
  stage: string;
  ok: boolean;
  seconds: number;
  note?: string;
}

interface Options {
  stages: Stage[];
  /** Extra arguments for a stage's runner: its files, the repeat count. */
  runnerArgs: Map<string, string[]>;
  stress: boolean;
}

/** Under --stress each e2e test runs this many times unless --repeat-each says otherwise. */
const stressRepeats = 5;

function usage(message: string): never {
  console.error(
    `${message}\nStages are ${stages.map((s) => s.name).join(', ')}; files are paths under test/.`,
  );
  process.exit(2);
}

function parseOptions(args: string[]): Options {
  const stress = args.includes('--stress');
  let repeatEach = stress ? stressRepeats : undefined;
  const named: string[] = [];
  const files = { unit: [] as string[], e2e: [] as string[] };
  for (const arg of args) {
    const repeat = /^--repeat-each=(\d+)$/.exec(arg);
    if (repeat) repeatEach = Number(repeat[1]);
    else if (arg === '--stress') continue;
    else if (arg.startsWith('-')) usage(`Unknown option ${arg}.`);
    else if (arg.includes('/') || arg.endsWith('.ts'))
      (arg.includes('e2e/') ? files.e2e : files.unit).push(arg);
    else if (stages.some((stage) => stage.name === arg)) named.push(arg);
    else usage(`Unknown stage ${arg}.`);
  }
  const byFiles = [
    ...(files.unit.length > 0 ? ['unit'] : []),
    ...(files.e2e.length > 0 ? ['build', 'e2e'] : []),
  ];
  const wanted = named.length > 0 ? named : byFiles;
  const runnerArgs = new Map<string, string[]>([
    ['test:unit', files.unit],
    ['soak', ['--minutes', '2']],
    [
      'test:e2e',
      [
        ...files.e2e,
        ...(repeatEach !== undefined ? [`--repeat-each=${repeatEach}`] : []),
        // Hunting a flaky test: keep a full trace of every failure (off otherwise, see playwright.config.ts).
        ...(stress ? ['--trace=retain-on-failure'] : []),
      ],
    ],
  ]);
  return {
    stages: wanted.length === 0 ? stages : stages.filter((stage) => wanted.includes(stage.name)),
    runnerArgs,
    stress,
  };
}

/** Runs one npm script; `buffered` holds its output (stdout and stderr) until it ends. */
function runNpmScript(
  script: string,
  args: string[],
  summaries: string[],
  buffered = false,
): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const child = spawn('npm', ['run', '--silent', script, ...(args.length > 0 ? ['--', ...args] : [])], {
      stdio: ['ignore', 'pipe', buffered ? 'pipe' : 'inherit'],
      env: process.env,
    });
    const held: Buffer[] = [];
    let pending = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      if (buffered) held.push(chunk);
      else process.stdout.write(chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines)
        if (/^(unit|e2e)(: \d+ passed| failed: )|^soak: /.test(line)) summaries.push(line);
    });
    child.stderr?.on('data', (chunk: Buffer) => held.push(chunk));
    const done = (ok: boolean) => {
      if (buffered)
        process.stdout.write(`--- npm run ${script} ---\n${Buffer.concat(held).toString('utf8')}`);
      resolvePromise(ok);
    };
    child.on('close', (code) => done(code === 0));
    child.on('error', () => done(false));
  });
}

/** A stage's scripts, in order or side by side; says which failed, if any. */
async function runScripts(stage: Stage, options: Options, summaries: string[]): Promise<string | undefined> {
  const argsOf = (script: string) => options.runnerArgs.get(script) ?? [];
  if (stage.together) {
    const results = await Promise.all(stage.scripts.map((s) => runNpmScript(s, argsOf(s), summaries, true)));
    const failed = stage.scripts.filter((_, i) => !results[i]);
    return failed.length > 0 ? failed.map((s) => `npm run ${s} failed`).join(', ') : undefined;
  }
  for (const script of stage.scripts) {
    if (!(await runNpmScript(script, argsOf(script), summaries))) return `npm run ${script} failed`;
  }
  return undefined;
}

async function runStages(options: Options, summaries: string[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const stage of options.stages) {
    const blocker = stage.needs && outcomes.find((o) => o.stage === stage.needs && !o.ok);
    if (blocker) {
      outcomes.push({ stage: stage.name, ok: false, seconds: 0, note: `not run: ${stage.needs} failed` });
      continue;
    }
    console.log(`\n=== ${stage.name}: ${stage.scripts.map((s) => `npm run ${s}`).join(', ')} ===`);
    const stageStart = Date.now();
    const note = await runScripts(stage, options, summaries);
    outcomes.push({ stage: stage.name, ok: !note, seconds: (Date.now() - stageStart) / 1000, note });
    if (stage.name === 'build' && !note) useWhatWasBuilt();
  }
  return outcomes;
}

/**
 * The tests start the demo agent for every machine, spawn the CLI hundreds of times and the service
 * dozens of times, and every host they start runs two worker threads. Run from source each is a Node
 * (or a thread) with the tsx loader compiling it again (0.5 to 1 s of CPU, 2 s of waiting, each time);
 * once the build stage has just built the same source, the tests run the built files, as the packaged
 * app and the installed CLI do.
 */
function useWhatWasBuilt(): void {
  // Each variable with the built files that may serve it, the first one there wins; one set by hand stays.
  const built: [variable: string, files: string[]][] = [
    ['AGENTDESK_DEMO_AGENT_JS', ['out/node/demo-agent.js', 'out/main/demo-agent.js']],
    ['AGENTDESK_MODEL_AGENT_JS', ['out/node/model-agent.js', 'out/main/model-agent.js']],
    ['AGENTDESK_MEMORY_WRITER_JS', ['out/node/memory-writer.js']],
    ['AGENTDESK_EXTENSION_OPERATIONS_JS', ['out/node/extension-operations.js']],
    ['AGENTDESK_TEST_CLI_JS', ['out/node/cli.js']],
    ['AGENTDESK_TEST_SERVICE_JS', ['out/node/service.js']],
  ];
  for (const [variable, files] of built) {
    const file = files.map((f) => resolve(f)).find(existsSync);
    if (file) process.env[variable] ??= file;
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = Date.now();
  const prerequisites = await ensureSystemPackages({
    needBrowser: options.stages.some((s) => s.name === 'e2e'),
  });
  if (!prerequisites.ok) {
    for (const line of prerequisites.problems) console.error(line);
    process.exit(1);
  }

  const timings = mkdtempSync(join(tmpdir(), 'agentdesk-test-times-'));
  process.env['AGENTDESK_TEST_TIMINGS'] = timings;
  const hog = options.stress ? startCpuHog() : undefined;
  if (hog) console.log(`\n=== stress: ${hog.count} busy-loop processes keep every core busy ===`);
  const summaries: string[] = [];
  const outcomes = await runStages(options, summaries).finally(() => hog?.stop());

  console.log('\n=== summary ===');
  for (const line of slowestFilesLines(readFileTimes(timings))) console.log(line);
  rmSync(timings, { recursive: true, force: true });
  for (const o of outcomes) {
    const status = o.ok ? 'passed' : 'FAILED';
    console.log(
      `${o.stage.padEnd(6)} ${status.padEnd(7)} ${o.seconds.toFixed(1).padStart(6)} s${o.note ? `  (${o.note})` : ''}`,
    );
  }
  for (const line of summaries) console.log(line);
  const failed = outcomes.filter((o) => !o.ok);
  const total = (Date.now() - started) / 1000;
  console.log(`total  ${failed.length === 0 ? 'passed' : 'FAILED'} ${total.toFixed(1).padStart(6)} s`);
  const slow = tooLongLine(total, outcomes);
  if (slow) console.log(slow);
  process.exit(failed.length === 0 ? 0 : 1);
}

void main();
