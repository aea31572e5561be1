import { LIMITS } from '../../shared/api';

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
const AHEAD_MAX_MS = LIMITS.scheduleAheadMinutesMax * MINUTE;
/** The latest instant a stored row may claim: 9999-12-31, still a four-digit ISO year. */
const LATEST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

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
    if (b.inMinutes > LIMITS.scheduleAheadMinutesMax) return bad('inMinutes: como mucho unos cinco años');
    dueAt = now + Math.round(b.inMinutes * MINUTE);
  } else {
    const t = parseInstant(b.dueAt, 'dueAt');
    if (typeof t !== 'number') return bad(t ?? 'falta dueAt');
    dueAt = t;
  }
  if (dueAt > now + AHEAD_MAX_MS) return bad('dueAt: como mucho unos cinco años desde ahora');
  let repeatMin: number | null = null;
  if (b.repeatMin !== undefined && b.repeatMin !== null) {
    if (typeof b.repeatMin !== 'number' || !Number.isFinite(b.repeatMin) || b.repeatMin <= 0) {
      return bad('repeatMin debe ser un número positivo o null');
    }
    if (b.repeatMin < LIMITS.scheduleRepeatMinutesMin || b.repeatMin > LIMITS.scheduleRepeatMinutesMax) {
      return bad('repeatMin: entre 1 minuto y un año');
    }
    repeatMin = b.repeatMin;
  }
  const until = parseInstant(b.until, 'until');
  if (typeof until === 'string') return bad(until);
  if (until !== null && until < dueAt) return bad('until es anterior a la primera ejecución');
  if (until !== null && until > now + AHEAD_MAX_MS)
    return bad('until: como mucho unos cinco años desde ahora');
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

/**
 * A stored plan brought back within range, for rows written before the limits existed: an instant that
 * no date can hold becomes the last day of year 9999 (so the item shows and can be cancelled), and a
 * repeat under a minute runs once a minute.
 */
export function saneStoredPlan<T extends SchedulePlan>(plan: T): T {
  const instant = (ms: number) =>
    Number.isFinite(ms) ? Math.min(Math.max(ms, 0), LATEST_INSTANT) : LATEST_INSTANT;
  const repeat = plan.repeatMin;
  return {
    ...plan,
    dueAt: instant(plan.dueAt),
    repeatMin:
      repeat === null
        ? null
        : Number.isFinite(repeat)
          ? Math.min(Math.max(repeat, LIMITS.scheduleRepeatMinutesMin), LIMITS.scheduleRepeatMinutesMax)
          : LIMITS.scheduleRepeatMinutesMax,
    until: plan.until === null ? null : instant(plan.until),
  };
}
