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
    log(`${c.req.method} ${c.req.path} ${c.res.status} ${(now() - started).toFixed(1)}ms`);
  };
}
