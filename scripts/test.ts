/**
 * `npm test`: the one test command, the same on a fresh clone, a developer's machine and CI.
 * It makes sure the machine has what the tests need (installing it where it may), builds what
 * the tests load, then runs every stage and prints each stage's duration and the runners'
 * summary lines. It runs every stage it can even after a failure, so one red line does not
 * hide the rest, and exits non-zero when anything failed.
 *
 *   npm test                    everything
 *   npm test -- unit e2e        only the named stages (check, build, unit, e2e)
 */
import { spawn } from 'node:child_process';
import { ensureSystemPackages } from './test-prerequisites';

interface Stage {
  name: string;
  /** npm scripts run in order; the stage fails at the first that fails. */
  scripts: string[];
  /** A stage that cannot run without another one having passed. */
  needs?: string;
}

const stages: Stage[] = [
  { name: 'check', scripts: ['typecheck', 'lint', 'deps'] },
  { name: 'build', scripts: ['build'] },
  { name: 'unit', scripts: ['test:unit'] },
  { name: 'e2e', scripts: ['test:e2e'], needs: 'build' },
];

interface Outcome {
  stage: string;
  ok: boolean;
  seconds: number;
  note?: string;
}

function runNpmScript(script: string, summaries: string[]): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: process.env,
    });
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (/^(unit|e2e): \d+ passed/.test(line)) summaries.push(line);
    });
    child.on('close', (code) => resolvePromise(code === 0));
    child.on('error', () => resolvePromise(false));
  });
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const unknown = wanted.filter((name) => !stages.some((stage) => stage.name === name));
  if (unknown.length > 0) {
    console.error(`Unknown stage ${unknown.join(', ')}; stages are ${stages.map((s) => s.name).join(', ')}.`);
    process.exit(2);
  }
  const chosen = wanted.length === 0 ? stages : stages.filter((stage) => wanted.includes(stage.name));

  const started = Date.now();
  const prerequisites = await ensureSystemPackages({ needBrowser: chosen.some((s) => s.name === 'e2e') });
  if (!prerequisites.ok) {
    for (const line of prerequisites.problems) console.error(line);
    process.exit(1);
  }

  const outcomes: Outcome[] = [];
  const summaries: string[] = [];
  for (const stage of chosen) {
    const blocker = stage.needs && outcomes.find((o) => o.stage === stage.needs && !o.ok);
    if (blocker) {
      outcomes.push({ stage: stage.name, ok: false, seconds: 0, note: `not run: ${stage.needs} failed` });
      continue;
    }
    console.log(`\n=== ${stage.name}: ${stage.scripts.map((s) => `npm run ${s}`).join(', ')} ===`);
    const stageStart = Date.now();
    let ok = true;
    for (const script of stage.scripts) {
      if (!(await runNpmScript(script, summaries))) {
        ok = false;
        outcomes.push({ stage: stage.name, ok, seconds: 0, note: `npm run ${script} failed` });
        break;
      }
    }
    const seconds = (Date.now() - stageStart) / 1000;
    if (ok) outcomes.push({ stage: stage.name, ok, seconds });
    else outcomes[outcomes.length - 1]!.seconds = seconds;
  }

  console.log('\n=== summary ===');
  for (const o of outcomes) {
    const status = o.ok ? 'passed' : 'FAILED';
    console.log(
      `${o.stage.padEnd(6)} ${status.padEnd(7)} ${o.seconds.toFixed(1).padStart(6)} s${o.note ? `  (${o.note})` : ''}`,
    );
  }
  for (const line of summaries) console.log(line);
  const failed = outcomes.filter((o) => !o.ok);
  console.log(
    `total  ${failed.length === 0 ? 'passed' : 'FAILED'} ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s`,
  );
  process.exit(failed.length === 0 ? 0 : 1);
}

void main();
