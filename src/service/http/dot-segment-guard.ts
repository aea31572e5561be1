import type { MiddlewareHandler } from 'hono';
import { API_BASE } from '../../shared/api';
import { notFound } from './errors';
import type { AppEnv } from './app-env';
import { hasDotSegment, rawTarget } from './raw-target';

/**
 * Outside `/api/v2` (whose guard answers 400 `ruta_invalida` after the bearer check), a target with a `.` or
 * `..` segment names no page of ours: URL parsing would quietly turn `/s/..` into `/` (a redirect) or
 * `/x/../openapi.yaml` into another resource, so it is 404 `not_found`.
 */
export function dotSegmentGuard(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const target = rawTarget(c);
    if (target && !c.req.path.startsWith(`${API_BASE}/`) && hasDotSegment(target)) return notFound(c);
    await next();
  };
}
