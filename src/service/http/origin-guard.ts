import type { MiddlewareHandler } from 'hono';
import type { Serving } from '../serving';
import { errorJson } from './errors';

/** Origins of pages on this computer's loopback names (our own pages, and local tools in front of us). */
const LOOPBACK_ORIGIN = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

/**
 * A browser names the page behind a request in `Origin`: a foreign page (`https://evil.example`, or `null`
 * from a sandboxed frame) must not reach the service at all, not even a CORS preflight. Clients outside a
 * browser send no Origin and pass; any other local process can reach 127.0.0.1 directly anyway, so loopback
 * origins on any port pass too, and so do pages of the service's own public origin (`publicUrl`).
 */
export function originGuard(serving: Serving): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    // Our own pages send `Referrer-Policy: no-referrer`, so Chromium names their form posts `Origin: null`;
    // `Sec-Fetch-Site` (which no page can set) tells that one apart from a sandboxed foreign frame.
    const ownPage = origin?.trim() === 'null' && c.req.header('sec-fetch-site') === 'same-origin';
    const trimmed = origin?.trim();
    const allowed = ownPage || trimmed === serving.publicOrigin || LOOPBACK_ORIGIN.test(trimmed ?? '');
    if (origin !== undefined && !allowed) {
      return errorJson(
        c,
        403,
        'origen_no_permitido',
        'Pages of other sites may not call this service; use the AgentDesk app or a client outside the browser.',
      );
    }
    await next();
  };
}
