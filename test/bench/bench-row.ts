import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/**
 * One measured figure against its goal: printed as `ok  …` or `MISS …`, and, when the bench runs
 * under `npm run bench` (test/bench/run.ts), appended as a JSON line to $BENCH_RESULTS for its table.
 */
export interface BenchRow {
  /** Stable key, the same in every revision, so `--against` can pair figures. */
  id: string;
  /** What was measured, in plain words. */
  what: string;
  /** The figure (null when there is none, e.g. it never happened). */
  value: number | null;
  unit: string;
  /** The goal as a person reads it ("< 50 ms"). */
  goal: string;
  ok: boolean;
  /** How the figure is shown when a number and unit do not say it all. */
  shown?: string;
  /** The machine's 1-minute load average when the figure was taken (set by `benchRow`). */
  load?: number;
}

/** `12.3 ms`, `1.02 %`, `44 MB`: the figure with its unit, or its own text. */
export function showValue(row: Pick<BenchRow, 'value' | 'unit' | 'shown'>): string {
  if (row.shown !== undefined) return row.shown;
  if (row.value === null) return '—';
  const digits = Math.abs(row.value) >= 100 ? 0 : Math.abs(row.value) >= 10 ? 1 : 2;
  return `${row.value.toFixed(digits)}${row.unit === '%' || row.unit === '×' ? '' : ' '}${row.unit}`;
}

let missed = 0;

/** Whether any row printed so far missed its goal (a bench's exit code). */
export function anyMissed(): boolean {
  return missed > 0;
}

/** Prints the row with the load average beside it (a shared machine moves every figure). */
export function benchRow(figure: BenchRow): void {
  const row = { ...figure, load: figure.load ?? Number(loadavg()[0]!.toFixed(2)) };
  if (!row.ok) missed += 1;
  console.log(
    `${row.ok ? 'ok  ' : 'MISS'} ${row.what}: ${showValue(row)} (goal ${row.goal}; load ${row.load})`,
  );
  const file = process.env['BENCH_RESULTS'];
  if (file) appendFileSync(file, `${JSON.stringify(row)}\n`);
}
