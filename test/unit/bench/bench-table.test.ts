import { describe, expect, it } from 'vitest';
import { showValue, type BenchRow } from '../../bench/bench-row';
import { formatTable, tableRows } from '../../bench/bench-table';

const row = (id: string, value: number | null, ok = true, extra: Partial<BenchRow> = {}): BenchRow => ({
  id,
  what: `measure ${id}`,
  value,
  unit: 'ms',
  goal: '< 50 ms',
  ok,
  ...extra,
});

describe('showValue', () => {
  it('shows the figure with its unit, to a sensible precision, or its own text', () => {
    expect(showValue({ value: 4.567, unit: 'ms' })).toBe('4.57 ms');
    expect(showValue({ value: 45.67, unit: 'ms' })).toBe('45.7 ms');
    expect(showValue({ value: 456.7, unit: 'ms' })).toBe('457 ms');
    expect(showValue({ value: 1.234, unit: '×' })).toBe('1.23×');
    expect(showValue({ value: null, unit: 'ms' })).toBe('—');
    expect(showValue({ value: 3, unit: 'ms', shown: '3 ms (2 over 50 ms)' })).toBe('3 ms (2 over 50 ms)');
  });
});

describe('tableRows', () => {
  it('takes the median round of each side and pairs them by id into a ratio', () => {
    const here = [row('a', 30), row('a', 10), row('a', 20), row('b', 5)];
    const there = [row('a', 40, false), row('a', 40, false), row('c', 1)];
    const rows = tableRows(here, there);
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(rows[0]).toMatchObject({
      here: { value: 20, values: [30, 10, 20], load: null },
      there: { value: 40, ok: false },
    });
    expect(rows[0]!.ratio).toBeCloseTo(0.5);
    expect(rows[1]).toMatchObject({ there: null, ratio: null });
    expect(rows[2]).toMatchObject({ here: null, there: { value: 1 } });
  });

  it('keeps the verdict of the median round, and a round with no figure counts as the slowest', () => {
    const [only] = tableRows([row('a', null, false), row('a', 60, false), row('a', 40, true)]);
    expect(only!.here).toMatchObject({ value: 60, ok: false });
  });
});

describe('formatTable', () => {
  it('prints every row with its value, goal and ok or MISS, in padded columns', () => {
    const text = formatTable(tableRows([row('a', 12, true, { load: 2.345 }), row('long-name', 70, false)]));
    expect(text.split('\n')).toEqual([
      'what               value    goal     ok    load',
      '-----------------  -------  -------  ----  ----',
      'measure a          12.0 ms  < 50 ms  ok    2.3',
      'measure long-name  70.0 ms  < 50 ms  MISS  —',
    ]);
  });

  it('adds the other revision and the ratio with --against', () => {
    const text = formatTable(
      tableRows([row('a', 10, true, { load: 1 })], [row('a', 40, false, { load: 3.5 })]),
      'main (6a71f40)',
    );
    expect(text.split('\n')[0]).toMatch(
      /^what\s+value\s+goal\s+ok\s+load\s+main \(6a71f40\)\s+load\s+ratio$/,
    );
    expect(text.split('\n')[2]).toMatch(
      /^measure a\s+10\.0 ms\s+< 50 ms\s+ok\s+1\.0\s+40\.0 ms \(MISS\)\s+3\.5\s+0\.25×$/,
    );
  });
});
