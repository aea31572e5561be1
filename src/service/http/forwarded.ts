import type { MiddlewareHandler } from 'hono';
import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import type { Serving } from '../serving';

/** Who is asking, as far as this service can believe it. */
export interface ClientInfo {
  /** The browser's address: the socket's, or the one a trusted proxy names in X-Forwarded-For. */
  address: string;
  /** The Host the browser used: X-Forwarded-Host from a trusted proxy, else the Host header. */
  host: string | undefined;
  /** `host` is a trusted proxy's X-Forwarded-Host: the Host header and target name the proxy's upstream. */
  hostForwarded: boolean;
  /** `https` or `http` as a trusted proxy says the browser came; undefined when no trusted proxy says. */
  proto: string | undefined;
}

/** The first value of a header that proxies may have appended to (`a, b`). */
function firstValue(value: string | undefined): string | undefined {
  const first = value?.split(',')[0]?.trim();
  return first ? first : undefined;
}

/**
 * Sets `c.get('client')`. X-Forwarded-* headers are read only when the peer is one of `trustedProxies`;
 * from anyone else they are ignored, so a browser cannot claim another address or name.
 */
export function clientInfo(serving: Serving): MiddlewareHandler<{ Variables: { client: ClientInfo } }> {
  return async (c, next) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const peer = incoming?.socket.remoteAddress ?? 'unknown';
    const trusted = incoming !== undefined && serving.trustsProxy(peer, 0);
    const forwardedHost = trusted ? firstValue(c.req.header('x-forwarded-host')) : undefined;
    c.set(
      'client',
      trusted
        ? {
            address: proxyaddr(incoming, serving.trustsProxy),
            host: forwardedHost ?? c.req.header('host'),
            hostForwarded: forwardedHost !== undefined,
            proto: firstValue(c.req.header('x-forwarded-proto'))?.toLowerCase(),
          }
        : { address: peer, host: c.req.header('host'), hostForwarded: false, proto: undefined },
    );
    // The proxy says the browser came over plain http to an https service: send it to https first.
    if (serving.secure && trusted && c.get('client').proto === 'http') {
      const { pathname, search } = new URL(c.req.url);
      return c.body(null, 308, {
        Location: `${serving.publicOrigin}${pathname}${search}`,
        'Cache-Control': 'no-store',
      });
    }
    await next();
    // Served over https: browsers that saw it once never try plain http for it again (RFC 6797).
    if (serving.secure) c.header('Strict-Transport-Security', 'max-age=31536000');
  };
}
