import type { Context } from 'hono';

/**
 * The request target exactly as it came off the wire (before URL parsing removed `.` and `..` segments), when
 * the service runs under @hono/node-server; null elsewhere (tests calling `app.request`).
 */
export function rawTarget(c: Context): string | null {
  const env = c.env as { incoming?: { url?: string } } | undefined;
  return env?.incoming?.url ?? null;
}

/**
 * True when the target's path has a `.` or `..` segment, written plainly or %2e-escaped, between `/` or `\`
 * (which URL parsing also treats as a separator): the client named a path other than the one it would reach.
 */
export function hasDotSegment(target: string): boolean {
  const path = target.split(/[?#]/, 1)[0] ?? '';
  return path.split(/[/\\]/).some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}
