import { Hono } from 'hono';
import { html } from 'hono/html';
import { apiRoutes } from '../../shared/api';
import { callerPersonId, notFound } from '../auth/bearer';
import { CONNECTOR_CALLBACK_PATH } from '../connectors/connectors';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson } from '../http/errors';
import { registerRoute } from '../http/register-route';
import { PAGE_HEADERS, layout } from '../pages/layout';

/**
 * `/api/v2/me/connectors`: list, start (a URL to open in a browser) and disconnect. The provider sends the
 * browser back to `/conectores/callback` on this service, which finishes the connection and shows a page
 * saying so (what happens on return is not shown by the spec; this is our choice).
 */
export function connectorRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const connectors = () => ctx.agentConfig.connectors;

  registerRoute(app, apiRoutes.listConnectors, async (c) => {
    const list = await connectors().list(callerPersonId(c));
    return c.json({
      connectors: list.map(({ id, name, connected, available }) => ({
        id,
        nombre: name,
        conectado: connected,
        disponible: available,
      })),
    });
  });

  registerRoute(app, apiRoutes.startConnector, async (c, { params }) => {
    const started = await connectors().start(callerPersonId(c), params.id);
    if (started.ok) return c.json({ url: started.url });
    if (started.error === 'not_found') return notFound(c, 'No such connector.');
    return errorJson(
      c,
      409,
      'no_disponible',
      'This connector is not set up on this service (no client credentials).',
    );
  });

  registerRoute(app, apiRoutes.deleteConnector, async (c, { params }) => {
    const known = await connectors().disconnect(callerPersonId(c), params.id);
    return known ? c.json({ ok: true }) : notFound(c, 'No such connector.');
  });

  app.get(CONNECTOR_CALLBACK_PATH, async (c) => {
    const params = new URL(c.req.url).searchParams;
    const result = await connectors().finish(params);
    const page = result.ok
      ? layout(
          'Connected',
          html`<h1>${result.name} is connected</h1>
            <p role="status" data-conectado="true">You can close this tab and go back to AgentDesk.</p>`,
        )
      : layout(
          'Not connected',
          html`<h1>Not connected</h1>
            <p role="alert">${result.message}</p>`,
        );
    return c.html(page, result.ok ? 200 : 400, PAGE_HEADERS);
  });

  return app;
}
