/**
 * Reads a `Retry-After` header (delta seconds or an HTTP date) as milliseconds to wait,
 * or undefined when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Exponential backoff with full jitter between half and all of the step: 1 s, 2 s, 4 s ... capped. */
export function backoffDelay(
  attempt: number,
  options: { baseMs?: number; maxMs?: number; random?: () => number } = {},
): number {
  const base = options.baseMs ?? 1000;
  const max = options.maxMs ?? 30_000;
  const step = Math.min(max, base * 2 ** Math.max(0, attempt));
  const random = options.random ?? Math.random;
  return Math.round(step / 2 + (random() * step) / 2);
}
