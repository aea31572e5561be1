import type { z } from 'zod';

/** The outcome of checking a form value with a shared schema: the parsed value, or one sentence per field. */
export type FormCheck<T> = { ok: true; value: T } | { ok: false; problems: Record<string, string> };

/**
 * Checks `value` with the same zod schema the service uses, so a bad value never leaves the app.
 * Problems are keyed by the dotted field path (`starters.2`, `servers.0.url`; `''` for the whole value).
 */
export function checkForm<S extends z.ZodType>(schema: S, value: unknown): FormCheck<z.output<S>> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.join('.');
    problems[key] ??= issue.message;
  }
  return { ok: false, problems };
}

/** The problem of one field or of anything under it (`starters` finds `starters.2`). */
export function problemAt(problems: Record<string, string>, field: string): string | undefined {
  if (problems[field]) return problems[field];
  const nested = Object.keys(problems).find((key) => key.startsWith(`${field}.`));
  return nested ? problems[nested] : undefined;
}
