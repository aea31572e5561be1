import type { MiddlewareHandler } from 'hono';
import type { Serving } from '../serving';
import type { AppEnv } from './app-env';
import { errorJson } from './errors';
import { rawTarget } from './raw-target';

/** Loopback names this service always answers to (with its own port), public name or not. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const;

/** True when `host` (a Host header) names a loopback address with exactly `port`. */
function isLoopbackHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const lower = host.toLowerCase();
  return LOOPBACK_NAMES.some((name) => lower === `${name}:${port}`);
}

/** The authority of the request URL: the Host header, or an absolute-form target's own (RFC 9112 §3.2.2). */
function urlAuthority(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/**
 * DNS rebinding guard: every request (pages, API, /openapi.yaml, OAuth metadata) must name this service, in
 * its Host header and in its target when that is absolute (or in a trusted proxy's X-Forwarded-Host): a loopback
 * name with its own port, or the host of `publicUrl`. `port` is read per request: it is known once listening.
 */
export function hostGuard(serving: Serving, port: () => number): MiddlewareHandler<AppEnv> {
  const isPublicHost = (host: string | undefined) =>
    host !== undefined && serving.publicHosts.has(host.toLowerCase());
  const answersTo = serving.publicOrigin
    ? `${new URL(serving.publicOrigin).host}, or 127.0.0.1, localhost or [::1] with its own port`
    : '127.0.0.1, localhost or [::1] with its own port';
  return async (c, next) => {
    const own = port();
    const { host, hostForwarded } = c.get('client');
    const hostOk = isLoopbackHost(host, own) || isPublicHost(host);
    // An origin-form target (`/path`) has the Host header's authority: parse the URL only when it is absolute.
    // Behind a trusted proxy that forwards the browser's name, Host and target name the upstream (its choice).
    const target = rawTarget(c)?.startsWith('/') ? null : new URL(c.req.url);
    const targetOk =
      hostForwarded ||
      (target === null
        ? isLoopbackHost(c.req.header('host'), own) || isPublicHost(c.req.header('host'))
        : isLoopbackHost(urlAuthority(target), own) || isPublicHost(target.host));
    if (!hostOk || !targetOk)
      return errorJson(c, 421, 'host_no_permitido', `This service answers only at ${answersTo}.`);
    await next();
  };
}
