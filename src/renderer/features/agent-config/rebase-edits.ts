/**
 * `next` with the edits that turned `before` into `draft` kept on top, leaf by leaf through plain objects
 * (an array or a value edited is kept whole). What the draft did not touch takes `next`'s value.
 */
export function rebaseEdits<T>(before: T, draft: T, next: T): T {
  if (same(draft, before)) return next;
  if (!isRecord(before) || !isRecord(draft) || !isRecord(next)) return draft;
  const out: Record<string, unknown> = { ...next };
  for (const key of new Set([...Object.keys(before), ...Object.keys(draft)])) {
    if (key in draft) out[key] = rebaseEdits(before[key], draft[key], next[key]);
    else delete out[key]; // the draft dropped it
  }
  return out as T;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
