import { showValue, type BenchRow } from './bench-row';

/**
 * The figures of one `npm run bench` run: every row its benches reported, the median of its rounds,
 * and with `--against` the other revision's figure and the ratio (this ÷ that; below 1 is faster
 * or smaller for time, memory and CPU).
 */
export interface SideFigure {
  value: number | null;
  ok: boolean;
  shown: string;
  /** Every round's value, in the order run. */
  values: (number | null)[];
  /** The load average when the median round's figure was taken. */
  load: number | null;
}

export interface TableRow {
  id: string;
  what: string;
  unit: string;
  goal: string;
  here: SideFigure | null;
  there: SideFigure | null;
  ratio: number | null;
}

/** The round whose value is the median (lower middle for an even count; rounds with no value last). */
function medianOf(rows: BenchRow[]): SideFigure {
  const ranked = [...rows].sort((a, b) => (a.value ?? Infinity) - (b.value ?? Infinity));
  const middle = ranked[Math.floor((ranked.length - 1) / 2)]!;
  return {
    value: middle.value,
    ok: middle.ok,
    shown: showValue(middle),
    values: rows.map((r) => r.value),
    load: middle.load ?? null,
  };
}

/** Pairs the rows of both sides by id, keeping this revision's order, then rows only the other has. */
export function tableRows(here: BenchRow[], there?: BenchRow[]): TableRow[] {
  const ids = [...new Set([...here.map((r) => r.id), ...(there ?? []).map((r) => r.id)])];
  return ids.map((id) => {
    const mine = here.filter((r) => r.id === id);
    const theirs = (there ?? []).filter((r) => r.id === id);
    const first = mine[0] ?? theirs[0]!;
    const h = mine.length ? medianOf(mine) : null;
    const t = theirs.length ? medianOf(theirs) : null;
    const ratio = h?.value != null && t?.value != null && t.value !== 0 ? h.value / t.value : null;
    return { id, what: first.what, unit: first.unit, goal: first.goal, here: h, there: t, ratio };
  });
}

/** A plain-text table, columns padded, for the terminal. */
export function formatTable(rows: TableRow[], againstLabel?: string): string {
  const header = ['what', 'value', 'goal', 'ok', 'load'];
  if (againstLabel !== undefined) header.push(againstLabel, 'load', 'ratio');
  const loadOf = (figure: SideFigure | null) => (figure?.load == null ? '—' : figure.load.toFixed(1));
  const lines = rows.map((row) => {
    const cells = [
      row.what,
      row.here?.shown ?? '—',
      row.goal,
      row.here ? (row.here.ok ? 'ok' : 'MISS') : '—',
      loadOf(row.here),
    ];
    if (againstLabel !== undefined) {
      cells.push(row.there ? `${row.there.shown}${row.there.ok ? '' : ' (MISS)'}` : '—');
      cells.push(loadOf(row.there));
      cells.push(row.ratio === null ? '—' : `${row.ratio.toFixed(2)}×`);
    }
    return cells;
  });
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((cells) => cells[column]!.length)),
  );
  const render = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [render(header), render(widths.map((w) => '-'.repeat(w))), ...lines.map(render)].join('\n');
}
