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

/** The authority of the request URL: the Host header, or an absolute-form target's own (RFC 9112 §3.2.2). */
function urlAuthority(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || (parsed.protocol === 'https:' ? '443' : '80')}`;
}

/**
 * DNS rebinding guard: every request (pages, API, /openapi.yaml, OAuth metadata) must name this service by a
 * loopback host and its own port, in its Host header and in its target when that is absolute.
 * `port` is read per request because it is known only once listening.
 */
export function hostGuard(port: () => number): MiddlewareHandler {
  return async (c, next) => {
    const own = port();
    if (!isLoopbackHost(c.req.header('host'), own) || !isLoopbackHost(urlAuthority(c.req.url), own)) {
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
