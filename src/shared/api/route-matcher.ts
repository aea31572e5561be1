import type { HttpMethod, RouteSpec } from './route-types';
import { routes as defaultRoutes } from './routes';

export interface RouteMatch {
  route: RouteSpec;
  /** Decoded path parameters. */
  params: Record<string, string>;
}

export type RouteLookup =
  | { kind: 'unknown' }
  /** The path exists, but not with this method: answer 405 with `Allow`. */
  | { kind: 'wrong_method'; allow: HttpMethod[] }
  | ({ kind: 'found' } & RouteMatch);

interface CompiledRoute {
  route: RouteSpec;
  pattern: RegExp;
  names: string[];
}

/**
 * Turns `/api/v2/agents/{id}/files/{path}` into a regex. A `{path}` parameter at the end spans
 * several segments and may be empty, so `.../files`, `.../files/` and `.../files/a/b.md` all match.
 */
export function compileRoutePath(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  let source = '';
  for (const segment of path.split('/').slice(1)) {
    const param = /^\{(\w+)\}$/.exec(segment);
    if (!param) {
      source += '/' + segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      continue;
    }
    const name = param[1] as string;
    names.push(name);
    source += name === 'path' ? '(?:/(.*))?' : '/([^/]+)';
  }
  return { pattern: new RegExp(`^${source}$`), names };
}

function decode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** A matcher over a route table; the default one is built from `routes`. */
export function createRouteMatcher(table: readonly RouteSpec[]) {
  const compiled: CompiledRoute[] = table.map((route) => ({ route, ...compileRoutePath(route.path) }));

  function matchAll(pathname: string): RouteMatch[] {
    const found: RouteMatch[] = [];
    for (const entry of compiled) {
      const match = entry.pattern.exec(pathname);
      if (!match) continue;
      const params: Record<string, string> = {};
      let decodable = true;
      entry.names.forEach((name, index) => {
        const value = decode(match[index + 1] ?? '');
        if (value === null) decodable = false;
        else params[name] = value;
      });
      if (decodable) found.push({ route: entry.route, params });
    }
    return found;
  }

  /** The route for `method` + `pathname`, or null. HEAD matches GET routes. */
  function matchRoute(method: string, pathname: string): RouteMatch | null {
    const wanted = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    return matchAll(pathname).find((m) => m.route.method === wanted) ?? null;
  }

  /** Every route whose path matches, whatever the method (for 405 and `Allow`). */
  function routesForPath(pathname: string): RouteSpec[] {
    return matchAll(pathname).map((m) => m.route);
  }

  function lookupRoute(method: string, pathname: string): RouteLookup {
    const found = matchRoute(method, pathname);
    if (found) return { kind: 'found', ...found };
    const allow = [...new Set(routesForPath(pathname).map((r) => r.method))];
    return allow.length > 0 ? { kind: 'wrong_method', allow } : { kind: 'unknown' };
  }

  return { matchRoute, routesForPath, lookupRoute };
}

const defaultMatcher = createRouteMatcher(defaultRoutes);

/** The route of the v2 table for `method` + `pathname` (already without query), or null. */
export const matchRoute = defaultMatcher.matchRoute;
/** Every v2 route whose path matches `pathname`, whatever the method. */
export const routesForPath = defaultMatcher.routesForPath;
/** found / wrong_method (with `allow`) / unknown, for the service's 404 and 405 handling. */
export const lookupRoute = defaultMatcher.lookupRoute;
