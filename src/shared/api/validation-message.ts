import type { z } from 'zod';

/**
 * Turns a zod error into one plain sentence that names each field, e.g.
 * `servers.0.url: url must be an https URL`. Union failures report the closest branch.
 */
export function describeZodError(error: z.ZodError): string {
  return flattenIssues(error.issues, [])
    .map(({ path, message }) => (path.length > 0 ? `${path.join('.')}: ${message}` : message))
    .join('; ');
}

interface FlatIssue {
  path: PropertyKey[];
  message: string;
}

function flattenIssues(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]): FlatIssue[] {
  return issues.flatMap((issue): FlatIssue[] => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // The branch the caller most likely meant: fewest missing fields, then fewest issues.
      const closest =
        [...issue.errors].sort((a, b) => missing(a) - missing(b) || a.length - b.length)[0] ?? [];
      if (closest.length > 0) return flattenIssues(closest, path);
    }
    return [{ path, message: issue.message }];
  });
}

function missing(issues: readonly z.core.$ZodIssue[]): number {
  return issues.filter(
    (i) => i.code === 'invalid_type' && /(received undefined| is required)$/.test(i.message),
  ).length;
}

/** The dotted paths of every field a zod error complains about. */
export function zodErrorFields(error: z.ZodError): string[] {
  return flattenIssues(error.issues, []).map(({ path }) => path.join('.'));
}
