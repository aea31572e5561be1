import type { ApiRoute } from './api-routes';

export interface RouteMatch {
  route: ApiRoute;
  params: Record<string, string>;
}

export type PathLookup =
  | { kind: 'unknown' }
  /** The path exists but not with this method; `allow` lists the methods it has. */
  | { kind: 'wrong_method'; allow: string[] }
  | ({ kind: 'found' } & RouteMatch);

interface Compiled {
  route: ApiRoute;
  pattern: RegExp;
  names: string[];
  /** Literal characters, so `/conversations/{sessionId}/share` wins over a looser pattern. */
  weight: number;
}

/** Matches request paths against the route table: which route, which parameters, or why none. */
export function createRouteMatcher(routes: readonly ApiRoute[]) {
  const compiled: Compiled[] = routes.map((route) => compile(route)).sort((a, b) => b.weight - a.weight);

  return function lookup(method: string, path: string): PathLookup {
    const allow: string[] = [];
    for (const entry of compiled) {
      const match = entry.pattern.exec(path);
      if (!match) continue;
      if (entry.route.method === method || (method === 'HEAD' && entry.route.method === 'GET')) {
        const params: Record<string, string> = {};
        entry.names.forEach((name, index) => {
          params[name] = safeDecode(match[index + 1] ?? '');
        });
        return { kind: 'found', route: entry.route, params };
      }
      if (!allow.includes(entry.route.method)) allow.push(entry.route.method);
    }
    return allow.length > 0 ? { kind: 'wrong_method', allow } : { kind: 'unknown' };
  };
}

function compile(route: ApiRoute): Compiled {
  const names: string[] = [];
  const segments = route.path.split('/');
  const last = segments.length - 1;
  const source = segments
    .map((segment, index) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return escapeRegExp(segment);
      names.push(param[1] as string);
      // A final `{path}` is the rest of the URL (a workspace path has slashes).
      return index === last && param[1] === 'path' ? '(.*)' : '([^/]+)';
    })
    .join('/');
  return {
    route,
    pattern: new RegExp(`^${source}$`),
    names,
    weight: route.path.replace(/\{\w+\}/g, '').length,
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
