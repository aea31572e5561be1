import type { TurnoProgramado } from './resources';

/**
 * A message scheduled to be sent later or on repeat, in our words: the wire's `TurnoProgramado` keeps
 * English field names, so ours is that shape without the envelope (`programados`, `programado`) it comes in.
 * The API client (core/api/schedules-api.ts) unwraps it; the request stays `ScheduleBody`.
 */
export type Schedule = Pick<TurnoProgramado, 'id' | 'prompt' | 'dueAt' | 'repeatMin' | 'until'>;
