import type { MiddlewareHandler } from 'hono';
import { errorJson } from './errors';

/** The only names this service answers to; anything else is a page that rebound its DNS to 127.0.0.1. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const;

/** True when `host` (a Host header) names a loopback address with exactly `port`. */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const lower = host.toLowerCase();
  return LOOPBACK_NAMES.some((name) => lower === `${name}:${port}`);
}

/**
 * DNS rebinding guard: every request (pages, API, /openapi.yaml, OAuth metadata) must name this service by a
 * loopback host and its own port. `port` is read per request because it is known only once listening.
 */
export function hostGuard(port: () => number): MiddlewareHandler {
  return async (c, next) => {
    if (!isLoopbackHost(c.req.header('host'), port())) {
      return errorJson(
        c,
        421,
        'host_no_permitido',
        'This service answers only at 127.0.0.1, localhost or [::1] with its own port.',
      );
    }
    await next();
  };
}
