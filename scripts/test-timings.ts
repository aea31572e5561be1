/**
 * Where `npm test`'s time goes. Each runner's summary reporter writes how long each of its
 * files took to a folder `npm test` names in $AGENTDESK_TEST_TIMINGS; `npm test` reads them
 * back and prints the slowest files, and says so when the whole run took too long.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface FileTime {
  /** The stage whose runner ran the file: unit (vitest) or e2e (Playwright). */
  stage: string;
  /** The file's path from the repository root. */
  file: string;
  seconds: number;
}

export interface StageTime {
  stage: string;
  seconds: number;
}

/**
 * A run longer than this is one people stop running (issue 28): `npm test` says so. The goal for a quiet
 * machine is 10 minutes (docs/develop.md, "Where the test run's time goes": today's run is over it).
 */
export const tooLongSeconds = 10 * 60;

/** Called by a runner's reporter; does nothing outside `npm test`. */
export function recordFileTimes(stage: string, times: Map<string, number>): void {
  const dir = process.env['AGENTDESK_TEST_TIMINGS'];
  if (!dir) return;
  const files: FileTime[] = [...times].map(([file, seconds]) => ({
    stage,
    file: relative(process.cwd(), file),
    seconds,
  }));
  mkdirSync(dir, { recursive: true });
  // One file per runner process; a stage run twice (a retry by hand) keeps both.
  writeFileSync(join(dir, `${stage}-${process.pid}.json`), JSON.stringify(files));
}

export function readFileTimes(dir: string): FileTime[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as FileTime[]);
}

/** The lines that name the slowest files, slowest first. */
export function slowestFilesLines(times: FileTime[], count = 10): string[] {
  const slowest = [...times].sort((a, b) => b.seconds - a.seconds).slice(0, count);
  if (slowest.length === 0) return [];
  return [
    `slowest ${slowest.length} files:`,
    ...slowest.map((t) => `${t.seconds.toFixed(1).padStart(7)} s  ${t.stage.padEnd(4)}  ${t.file}`),
  ];
}

/** Said at the very end when the run took too long, naming the stage that took longest. */
export function tooLongLine(totalSeconds: number, stages: StageTime[]): string | undefined {
  if (totalSeconds <= tooLongSeconds) return undefined;
  const worst = [...stages].sort((a, b) => b.seconds - a.seconds)[0];
  const minutes = (totalSeconds / 60).toFixed(1);
  const blame = worst ? `; the ${worst.stage} stage took longest (${worst.seconds.toFixed(0)} s)` : '';
  return `SLOW: the run took ${minutes} minutes, over the ${tooLongSeconds / 60} minutes it should${blame}. The slowest files are listed above.`;
}

// eslint-disable-next-line no-control-regex
const colourCodes = /\u001b\[[0-9;]*m/g;

/** What an error that is not an Error says: some (vitest's serialized ones) have no string form at all. */
function describe(error: unknown): string {
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
  )
    return (error as { message: string }).message;
  try {
    return String(error ?? '');
  } catch {
    return 'an error with no message';
  }
}

/** The first line of an error, without colour codes, short enough for a summary line. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : describe(error);
  const plain = text.replace(colourCodes, '').trim().split('\n')[0] ?? '';
  return plain.length > 200 ? `${plain.slice(0, 197)}...` : plain;
}
