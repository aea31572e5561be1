import type { Schedule, ScheduleBody } from '../../shared/api';

/** What the schedule form holds, as typed. Dates are `datetime-local` values in the person's time zone. */
export interface ScheduleForm {
  prompt: string;
  when: 'in' | 'at';
  inMinutes: string;
  at: string;
  repeat: boolean;
  repeatMin: string;
  until: string;
}

export const emptyScheduleForm: ScheduleForm = {
  prompt: '',
  when: 'in',
  inMinutes: '5',
  at: '',
  repeat: false,
  repeatMin: '60',
  until: '',
};

export type FormResult = { ok: true; body: ScheduleBody } | { ok: false; problem: string };

/**
 * The POST schedule body for a form, or what is missing. Only gaps are caught here; the service
 * judges the values (a date in the past, `until` before the first run) and says why in `detalle`.
 */
export function scheduleBody(form: ScheduleForm): FormResult {
  const prompt = form.prompt.trim();
  if (!prompt) return { ok: false, problem: 'Write the message the agent should receive.' };
  const body: ScheduleBody = { prompt };
  if (form.when === 'in') {
    const minutes = Number(form.inMinutes);
    if (form.inMinutes.trim() === '' || !Number.isFinite(minutes))
      return { ok: false, problem: 'Say in how many minutes, as a number.' };
    body.inMinutes = minutes;
  } else {
    const at = localToIso(form.at);
    if (!at) return { ok: false, problem: 'Pick the date and time.' };
    body.dueAt = at;
  }
  if (form.repeat) {
    const every = Number(form.repeatMin);
    if (form.repeatMin.trim() === '' || !Number.isFinite(every))
      return { ok: false, problem: 'Say every how many minutes it repeats, as a number.' };
    body.repeatMin = every;
    if (form.until.trim()) {
      const until = localToIso(form.until);
      if (!until) return { ok: false, problem: 'The end date is not a date.' };
      body.until = until;
    }
  }
  return { ok: true, body };
}

/** A `datetime-local` value (local time) as an ISO instant, or null. */
export function localToIso(value: string): string | null {
  if (!value.trim()) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The next due time in the person's time zone, e.g. "Wed 25 Nov, 10:31 CET". */
export function dueWords(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/** "in 4 min", "in 2 h", "now" — how soon, from `now`. */
export function soonWords(iso: string, now: number): string {
  const minutes = Math.round((new Date(iso).getTime() - now) / 60_000);
  if (minutes <= 0) return 'due now';
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `in ${hours} h`;
  return `in ${Math.round(hours / 24)} days`;
}

/** "Repeats every 30 min until Fri 27 Nov, 09:00 CET", or "Once". */
export function repeatWords(item: Pick<Schedule, 'repeatMin' | 'until'>, timeZone?: string): string {
  if (!item.repeatMin) return 'Once';
  const every = `Repeats every ${item.repeatMin} min`;
  return item.until ? `${every} until ${dueWords(item.until, timeZone)}` : every;
}

/**
 * The person's time zone named for the schedule panel, e.g. "Europe/Madrid (Central European Summer Time)".
 * Forms take and lists show times in it; the wire stays ISO instants.
 */
export function zoneWords(now: number, timeZone?: string): string {
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const long = new Intl.DateTimeFormat(undefined, { timeZone: zone, timeZoneName: 'long' })
    .formatToParts(new Date(now))
    .find((part) => part.type === 'timeZoneName')?.value;
  const place = zone.replace(/_/g, ' ');
  return long && long !== place ? `${place} (${long})` : place;
}
