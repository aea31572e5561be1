import type { MiddlewareHandler } from 'hono';

/**
 * One line per request: method, path (never the query: it can carry codes), status, duration.
 * Tokens travel in headers and bodies, which are never logged.
 */
export function requestLog(
  log: (line: string) => void,
  now: () => number = performance.now.bind(performance),
): MiddlewareHandler {
  return async (c, next) => {
    const started = now();
    await next();
    log(`${c.req.method} ${printablePath(c.req.path)} ${c.res.status} ${(now() - started).toFixed(1)}ms`);
  };
}

// Control characters (CR LF, ESC...), spaces and line separators, direction controls and lone surrogates,
// once the path is decoded.
const UNPRINTABLE =
  /[\p{Cc}\p{Z}\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

/**
 * The request path as one inert word of its log line: a decoded `%0d%0a` would otherwise forge a line of its
 * own, a space a field, and an escape sequence would drive the terminal that shows the log. Each such
 * character is written as `\u001b`.
 */
export function printablePath(path: string): string {
  return path.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
