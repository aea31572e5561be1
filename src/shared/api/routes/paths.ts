import type { RouteSpec } from '../route-types';

/** Where every bearer route of the spec lives; the service guards everything under it. */
export const API_BASE = '/api/v2';

/**
 * A route's path with its `{params}` filled, each value encoded as one segment, and an optional query:
 * `routePath(apiRoutes.authorize, {}, params)` → `/oauth2/authorize?client_id=…`. Code outside the table
 * builds paths with this, so a path is only ever written in `routes/`.
 */
export function routePath(
  route: Pick<RouteSpec, 'path'>,
  params: Record<string, string> = {},
  query?: Record<string, string> | URLSearchParams,
): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`routePath: ${route.path} needs {${name}}`);
    return encodeURIComponent(value);
  });
  const search = query === undefined ? '' : new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
}
