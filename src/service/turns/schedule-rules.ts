/**
 * Pure rules of scheduled turns: validating a POST schedule body into a plan, and working out
 * when a plan fires next. No I/O, no clock of its own: `now` is always passed in.
 */

export interface SchedulePlan {
  prompt: string;
  dueAt: number;
  repeatMin: number | null;
  until: number | null;
}

export type PlanResult = { ok: true; plan: SchedulePlan } | { ok: false; error: string; detalle: string };

const MINUTE = 60_000;

function bad(detalle: string): PlanResult {
  return { ok: false, error: 'body_invalido', detalle };
}

function parseInstant(value: unknown, field: string): number | null | string {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return `${field} debe ser una fecha ISO 8601`;
  const t = Date.parse(value);
  if (Number.isNaN(t)) return `${field} no es una fecha ISO 8601 válida`;
  return t;
}

/** Validates a POST schedule body. `inMinutes` or `dueAt`, exactly one of them. */
export function planFromBody(body: unknown, now: number): PlanResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return bad('el cuerpo debe ser un objeto JSON');
  const b = body as Record<string, unknown>;
  if (typeof b.prompt !== 'string' || b.prompt.trim() === '') return bad('falta prompt');
  const hasIn = b.inMinutes !== undefined && b.inMinutes !== null;
  const hasDue = b.dueAt !== undefined && b.dueAt !== null;
  if (hasIn === hasDue) return bad('usa inMinutes o dueAt (uno de los dos)');
  let dueAt: number;
  if (hasIn) {
    if (typeof b.inMinutes !== 'number' || !Number.isFinite(b.inMinutes) || b.inMinutes < 0) {
      return bad('inMinutes debe ser un número no negativo');
    }
    dueAt = now + Math.round(b.inMinutes * MINUTE);
  } else {
    const t = parseInstant(b.dueAt, 'dueAt');
    if (typeof t !== 'number') return bad(t ?? 'falta dueAt');
    dueAt = t;
  }
  let repeatMin: number | null = null;
  if (b.repeatMin !== undefined && b.repeatMin !== null) {
    if (typeof b.repeatMin !== 'number' || !Number.isFinite(b.repeatMin) || b.repeatMin <= 0) {
      return bad('repeatMin debe ser un número positivo o null');
    }
    repeatMin = b.repeatMin;
  }
  const until = parseInstant(b.until, 'until');
  if (typeof until === 'string') return bad(until);
  if (until !== null && until < dueAt) return bad('until es anterior a la primera ejecución');
  return { ok: true, plan: { prompt: b.prompt, dueAt, repeatMin, until } };
}

/**
 * After a plan fired (or was found overdue at start-up), when does it fire next?
 * Missed occurrences are skipped, not replayed: a turn missed during downtime fires once.
 * Returns null when the plan is finished.
 */
export function nextDueAfter(plan: SchedulePlan, now: number): number | null {
  if (plan.repeatMin === null) return null;
  const step = plan.repeatMin * MINUTE;
  const missed = Math.max(1, Math.floor((now - plan.dueAt) / step) + 1);
  const next = plan.dueAt + missed * step;
  if (plan.until !== null && next > plan.until) return null;
  return next;
}
