import type { Context, MiddlewareHandler } from 'hono';
import {
  API_BASE,
  apiRoutes,
  createRouteMatcher,
  routes as contractRoutes,
  type RouteLookup,
  type CredentialKind,
  type RouteSpec,
  type Scope,
} from '../../shared/api';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson, methodNotAllowed, notFound } from '../http/errors';
import { hasDotSegment, rawTarget } from '../http/raw-target';
import type { AgentRecord } from '../identity/agents';
import { AGENT_TOKEN_PREFIX } from '../identity/agent-tokens';
import type { AuthInfo, Principal } from '../identity/principal';

export type { AuthInfo, Principal } from '../identity/principal';

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function readBearer(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ ]+([\x21-\x7e]+)[ ]*$/i.exec(header);
  return match ? (match[1] as string) : null;
}

/** Resolves a bearer token to its principal; null when unknown, expired or revoked. */
export async function authenticate(ctx: ServiceContext, token: string): Promise<Principal | null> {
  if (token.startsWith(AGENT_TOKEN_PREFIX)) {
    const grant = await ctx.identity.agentTokens.resolve(token);
    return grant ? { kind: 'agent', personId: grant.personId, agentId: grant.agentId } : null;
  }
  const grant = await ctx.identity.tokens.resolveAccess(token);
  return grant ? { kind: 'oauth', ...grant } : null;
}

export type Denial = { status: 401 } | { status: 403; scope: Scope } | { status: 404 };

/**
 * The rules of the spec, in order: an agent token is only good on `/api/v2/agents/{id}/*` (401 elsewhere);
 * a missing scope is 403; an agent that is not the caller's (or not this agent token's) is 404, never 403.
 */
export async function authorize(
  ctx: ServiceContext,
  principal: Principal,
  access: { credential: CredentialKind; scope: Scope | null; agentId: string | null },
): Promise<{ ok: true; agent: AgentRecord | null } | ({ ok: false } & Denial)> {
  if (principal.kind === 'agent' && access.credential !== 'agent-or-oauth') return { ok: false, status: 401 };
  if (principal.kind === 'oauth' && access.scope !== null && !principal.scopes.includes(access.scope)) {
    return { ok: false, status: 403, scope: access.scope };
  }
  if (access.agentId === null) return { ok: true, agent: null };
  if (principal.kind === 'agent' && principal.agentId !== access.agentId) return { ok: false, status: 404 };
  const agent = await ctx.identity.agents.findOwned(principal.personId, access.agentId);
  return agent ? { ok: true, agent } : { ok: false, status: 404 };
}

// --- Responses (the spec's shapes) ----------------------------------------------------------

export function unauthorized(c: Context, tokenPresent: boolean): Response {
  const challenge = tokenPresent
    ? 'Bearer realm="agentdesk", error="invalid_token"'
    : 'Bearer realm="agentdesk"';
  return c.text('Unauthorized: missing, expired or unusable token', 401, {
    'WWW-Authenticate': challenge,
    'Cache-Control': 'no-store',
  });
}

export function forbidden(c: Context, scope: Scope): Response {
  return c.text(`Forbidden: the token lacks the scope ${scope}`, 403, {
    'WWW-Authenticate': `Bearer realm="agentdesk", error="insufficient_scope", scope="${scope}"`,
    'Cache-Control': 'no-store',
  });
}

/** Kept here too for the routes that import them with the guard; they live in http/errors.ts. */
export { methodNotAllowed, notFound };

function deny(c: Context, denial: Denial, tokenPresent: boolean): Response {
  if (denial.status === 401) return unauthorized(c, tokenPresent);
  if (denial.status === 403) return forbidden(c, denial.scope);
  return notFound(c);
}

/** Which path parameter names the agent on a route: `{agentId}` under /me/agents, `{id}` under /agents. */
export function agentParamOf(route: RouteSpec): 'agentId' | 'id' | null {
  if (route.path.includes('{agentId}')) return 'agentId';
  if (route.credential === 'agent-or-oauth' && route.path.startsWith(apiRoutes.getAgent.path)) return 'id';
  return null;
}

/**
 * The guard on every `/api/v2` path, run before any handler (so routes without a handler yet still give
 * the auth answers): 401, then 400 for a `.`/`..` segment in the raw target, then 404 unknown path / 405 wrong
 * method, then 403 scope, then 404 foreign agent.
 * Every answer under /api/v2 carries `Cache-Control: no-store`.
 */
export function apiGuard(
  ctx: ServiceContext,
  routes: readonly RouteSpec[] = contractRoutes,
): MiddlewareHandler<AppEnv> {
  const { lookupRoute: lookup } = createRouteMatcher(
    routes.filter((route) => route.path.startsWith(`${API_BASE}/`)),
  );
  return async (c, next) => {
    const token = readBearer(c.req.header('Authorization'));
    const principal = token === null ? null : await authenticate(ctx, token);
    if (!principal) return unauthorized(c, token !== null);
    const target = rawTarget(c);
    if (target !== null && hasDotSegment(target)) {
      return errorJson(
        c,
        400,
        'ruta_invalida',
        'The path has a "." or ".." segment; name the resource directly.',
      );
    }

    const found = lookup(c.req.method, c.req.path);
    if (found.kind === 'unknown') {
      // A workspace path or an id the matcher could not read (not UTF-8, control characters): the spec's 400
      // invalid path, once the caller is known to own the agent; anything else unknown is 404.
      const meant = routeOfUnreadablePath(lookup, c.req.method, c.req.path);
      if (!meant) return notFound(c);
      const agentParam = agentParamOf(meant.route);
      const verdict = await authorize(ctx, principal, {
        ...meant.route,
        agentId: agentParam ? (meant.params[agentParam] ?? null) : null,
      });
      if (!verdict.ok) return deny(c, verdict, true);
      return errorJson(c, 400, 'ruta_invalida', 'The path is not valid UTF-8 or holds control characters.');
    }
    if (found.kind === 'wrong_method') return methodNotAllowed(c, found.allow);

    const param = agentParamOf(found.route);
    const agentId = param ? (found.params[param] ?? null) : null;
    const verdict = await authorize(ctx, principal, { ...found.route, agentId });
    if (!verdict.ok) return deny(c, verdict, true);

    const auth: AuthInfo = {
      principal,
      personId: principal.personId,
      route: found.route,
      params: found.params,
      agent: verdict.agent,
    };
    c.set('auth', auth);
    await next();
    setNoStore(c);
  };
}

/**
 * The route that `pathname` names with a parameter the matcher could not read: each segment that is not
 * UTF-8 stands in as `%00` (no id holds NUL, so an unreadable agent id stays a 404); else a final `{path}`,
 * found by putting a plain stand-in after each of its leading segments in turn; null when there is none.
 */
function routeOfUnreadablePath(
  lookup: (method: string, pathname: string) => RouteLookup,
  method: string,
  pathname: string,
): (RouteLookup & { kind: 'found' }) | null {
  const segments = pathname.split('/');
  const readable = segments.map((segment) => (isUtf8Escape(segment) ? segment : '%00')).join('/');
  const standIn = lookup(method, readable);
  if (standIn.kind === 'found' && !standIn.route.path.endsWith('/{path}')) return standIn;
  for (let kept = segments.length - 1; kept > 1; kept--) {
    const stand = lookup(method, `${segments.slice(0, kept).join('/')}/x`);
    if (stand.kind === 'found' && stand.route.path.endsWith('/{path}')) return stand;
  }
  return null;
}

function isUtf8Escape(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** JSON answers are never cached; the event stream keeps its own headers. */
function setNoStore(c: Context): void {
  const type = c.res.headers.get('Content-Type') ?? '';
  if (type.startsWith('text/event-stream') || c.res.headers.get('Cache-Control') === 'no-store') return;
  try {
    c.res.headers.set('Cache-Control', 'no-store');
  } catch {
    // Immutable headers (a Response built elsewhere): copy it.
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set('Cache-Control', 'no-store');
  }
}

// --- Helpers for route modules ---------------------------------------------------------------

/** The caller as checked by the guard; throws if a handler runs outside /api/v2 (a programming error). */
export function callerAuth(c: Context<AppEnv>): AuthInfo {
  const auth = c.get('auth');
  if (!auth) throw new Error('callerAuth used on a route the /api/v2 guard does not cover');
  return auth;
}

export function callerPersonId(c: Context<AppEnv>): string {
  return callerAuth(c).personId;
}

/** The checked agent of an `/agents/{id}` or `/me/agents/{agentId}` route. */
export function callerAgent(c: Context<AppEnv>): AgentRecord {
  const agent = callerAuth(c).agent;
  if (!agent) throw new Error('callerAgent used on a route without an agent parameter');
  return agent;
}
