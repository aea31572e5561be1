import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { apiRoutes, routePath } from '../../shared/api';
import type { ServiceContext } from '../context';
import { SESSION_LIFETIME_MS, type BrowserSession } from '../identity/browser-sessions';
import { safeEqual } from '../security/token-hash';

/**
 * Served over https (a public name): `__Host-agentdesk_session`, so the browser keeps it Secure, for this host
 * only (no Domain) and path `/`. On loopback, cookies ignore ports and the desktop app's loopback callback and
 * other local services share 127.0.0.1: the name carries this service's port so they never collide.
 */
function cookieName(ctx: ServiceContext): string {
  return ctx.serving.secure ? '__Host-agentdesk_session' : `agentdesk_session_${ctx.listenPort}`;
}

function writeCookie(ctx: ServiceContext, c: Context, session: BrowserSession): void {
  setCookie(c, cookieName(ctx), session.secret, {
    path: '/',
    httpOnly: true,
    // Lax, not Strict: a sign-in page reached from an app's authorize link is a cross-site top-level visit.
    sameSite: 'Lax',
    secure: ctx.serving.secure,
    maxAge: Math.floor(SESSION_LIFETIME_MS / 1000),
  });
}

export function currentSession(ctx: ServiceContext, c: Context): Promise<BrowserSession | null> {
  return ctx.identity.sessions.find(getCookie(c, cookieName(ctx)));
}

/** The current session, or a new anonymous one (so a sign-in form has a CSRF token bound to this browser). */
export async function ensureSession(ctx: ServiceContext, c: Context): Promise<BrowserSession> {
  const existing = await currentSession(ctx, c);
  if (existing) return existing;
  const session = await ctx.identity.sessions.create(null);
  writeCookie(ctx, c, session);
  return session;
}

/** Signing in (or out) always replaces the session, so a cookie planted before sign-in is worthless after it. */
export async function replaceSession(
  ctx: ServiceContext,
  c: Context,
  personId: string | null,
): Promise<BrowserSession> {
  const old = await currentSession(ctx, c);
  if (old) await ctx.identity.sessions.end(old.secret);
  const session = await ctx.identity.sessions.create(personId);
  writeCookie(ctx, c, session);
  return session;
}

/** The synchronizer-token check of every form POST. */
export function csrfValid(
  session: BrowserSession | null,
  submitted: string | undefined,
): session is BrowserSession {
  return session !== null && submitted !== undefined && safeEqual(session.csrf, submitted);
}

/** Whether `next` is one of our authorize requests (`/oauth2/authorize?…`), which sign-in goes back to. */
export function isAuthorizeNext(next: string): boolean {
  return next.startsWith(`${routePath(apiRoutes.authorize)}?`);
}

/** Where to go after signing in: only our own pages (no open redirect). */
export function safeNext(next: string | undefined): string {
  if (next && (isAuthorizeNext(next) || next === '/account')) return next;
  return '/account';
}
