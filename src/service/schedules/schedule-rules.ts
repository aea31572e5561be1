import { LIMITS } from '../../shared/api';
import { refuse, success, type Outcome } from '../outcome';

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

/** A schedule body is refused as `invalid`, with a sentence that says what to change (the route's 400). */
export type PlanResult = Outcome<SchedulePlan, 'invalid'>;

const MINUTE = 60_000;
const AHEAD_MAX_MS = LIMITS.scheduleAheadMinutesMax * MINUTE;
/** The latest instant a stored row may claim: 9999-12-31, still a four-digit ISO year. */
const LATEST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function bad(message: string): PlanResult {
  return refuse('invalid', message);
}

/** `what` names the field for a person ("The time to send"); the app shows the message as it is. */
function parseInstant(value: unknown, what: string): number | null | string {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return `${what} must be a date and time (ISO 8601).`;
  const t = Date.parse(value);
  if (Number.isNaN(t)) return `${what} is not a date and time (ISO 8601).`;
  return t;
}

/** Validates a POST schedule body. `inMinutes` or `dueAt`, exactly one of them. */
export function planFromBody(body: unknown, now: number): PlanResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return bad('The request must be a JSON object.');
  const b = body as Record<string, unknown>;
  if (typeof b.prompt !== 'string' || b.prompt.trim() === '') return bad('Write the message to send.');
  const hasIn = b.inMinutes !== undefined && b.inMinutes !== null;
  const hasDue = b.dueAt !== undefined && b.dueAt !== null;
  if (hasIn === hasDue)
    return bad('Give either minutes from now (inMinutes) or a date and time (dueAt), not both.');
  let dueAt: number;
  if (hasIn) {
    if (typeof b.inMinutes !== 'number' || !Number.isFinite(b.inMinutes) || b.inMinutes < 0) {
      return bad('The minutes from now must be a number of 0 or more.');
    }
    if (b.inMinutes > LIMITS.scheduleAheadMinutesMax)
      return bad('A message can be scheduled at most about five years ahead.');
    dueAt = now + Math.round(b.inMinutes * MINUTE);
  } else {
    const t = parseInstant(b.dueAt, 'The time to send');
    if (typeof t !== 'number') return bad(t ?? 'Give the time to send.');
    dueAt = t;
  }
  if (dueAt > now + AHEAD_MAX_MS) return bad('A message can be scheduled at most about five years ahead.');
  let repeatMin: number | null = null;
  if (b.repeatMin !== undefined && b.repeatMin !== null) {
    if (typeof b.repeatMin !== 'number' || !Number.isFinite(b.repeatMin) || b.repeatMin <= 0) {
      return bad('The repeat interval must be a number of minutes above 0.');
    }
    if (b.repeatMin < LIMITS.scheduleRepeatMinutesMin || b.repeatMin > LIMITS.scheduleRepeatMinutesMax) {
      return bad('The repeat interval must be between 1 minute and a year.');
    }
    repeatMin = b.repeatMin;
  }
  const until = parseInstant(b.until, 'The end of the repeats');
  if (typeof until === 'string') return bad(until);
  if (until !== null && until < dueAt)
    return bad('The end of the repeats is before the first time it would be sent.');
  if (until !== null && until > now + AHEAD_MAX_MS)
    return bad('The end of the repeats can be at most about five years ahead.');
  return success({ prompt: b.prompt, dueAt, repeatMin, until });
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
