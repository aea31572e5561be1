/**
 * How long a request may take: a base for any request, however small, plus an allowance per
 * megabyte it sends or expects back (a slow but living link). The API client's default deadline and
 * the sync's tighter one are both this rule with their own base.
 */
export interface DeadlineTiming {
  /** What any request may take, however small. */
  baseMs: number;
  /** Added per megabyte the request sends or is expected to receive. */
  msPerMegabyte: number;
}

export function byteDeadlineMs(bytes: number, timing: DeadlineTiming): number {
  return Math.round(timing.baseMs + (Math.max(0, bytes) / 1_048_576) * timing.msPerMegabyte);
}
