import { Hono } from 'hono';
import { apiRoutes } from '../../shared/api';
import { openApiYaml } from '../../shared/api/openapi';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { registerRoute } from '../http/register-route';

/** GET /openapi.yaml: the contract's OpenAPI 3.1 document, with this service's address as its server. */
export function openApiRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Building the document walks every schema; do it once per origin.
  const cache = new Map<string, string>();
  registerRoute(app, apiRoutes.openapi, (c) => {
    const origin = ctx.baseUrl; // never the request's Host
    let yaml = cache.get(origin);
    if (yaml === undefined) cache.set(origin, (yaml = openApiYaml({ serverUrl: origin })));
    return c.body(yaml, 200, {
      'Content-Type': 'application/yaml; charset=utf-8',
      'Cache-Control': 'no-cache',
    });
  });
  return app;
}
