import type { RouteSpec } from '../../shared/api';
import type { ApiError } from './api-error';
import { err, type Result } from '../common/result';

/** The names of a path template's `{params}`: `'/a/{id}/b/{slug}'` -> `'id' | 'slug'`. */
type ParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** The values a route's path needs, one string per `{param}` of its template. */
export type PathParams<Route extends Pick<RouteSpec, 'path'>> = {
  [Name in ParamNames<Route['path']>]: string;
};

/**
 * A workspace path for a final `{path}` parameter: each segment encoded, never `.` or `..`, so a
 * request can only name files inside the agent's workspace.
 */
function workspaceSegments(path: string): Result<string, ApiError> {
  const parts = path.split('/').filter((part) => part !== '');
  if (parts.some((part) => part === '..' || part === '.')) {
    return err({ code: 'invalid_path', status: 0, message: 'File paths must stay inside the workspace.' });
  }
  return { ok: true, value: parts.map(encodeURIComponent).join('/') };
}

/** Fills a route's path template; `{path}` spans several segments, every other parameter is one segment. */
export function fillPath<Route extends Pick<RouteSpec, 'path'>>(
  route: Route,
  params: PathParams<Route>,
): Result<string, ApiError> {
  const values = params as Record<string, string>;
  let failure: ApiError | undefined;
  const filled = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = values[name] ?? '';
    if (name !== 'path') return encodeURIComponent(value);
    const segments = workspaceSegments(value);
    if (!segments.ok) failure = segments.error;
    return segments.ok ? segments.value : '';
  });
  return failure ? err(failure) : { ok: true, value: filled };
}
