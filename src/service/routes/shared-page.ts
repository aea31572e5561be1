import { Hono } from 'hono';
import type { ServiceContext } from '../context';
import { apiRoutes } from '../../shared/api';
import type { AppEnv } from '../http/app-env';
import { registerRoute } from '../http/register-route';
import { escapeHtml, PUBLIC_PAGE_HEADERS, renderPublicPage } from '../turns/public-page';
import { looksLikeShareSlug } from '../turns/share-slug';

/**
 * `GET /s/{slug}`: the public, read-only page of a shared conversation. No bearer. Unknown or
 * unshared slugs get a small HTML 404 page (our choice), with the same noindex headers.
 */
export function sharedPageRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  registerRoute(app, apiRoutes.sharedConversationPage, (c, { params }) => {
    const { slug } = params;
    const row = looksLikeShareSlug(slug) ? ctx.turns.store.findShared(slug) : null;
    if (!row) {
      const html = `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow"><title>No compartida</title></head><body><p>${escapeHtml('Esta conversación no está compartida.')}</p></body></html>`;
      return c.html(html, 404, PUBLIC_PAGE_HEADERS);
    }
    const messages = ctx.turns.store.allMessages(row.id).map((m) => ({
      role: m.role,
      content: m.content,
      at: new Date(m.at).toISOString(),
    }));
    return c.html(renderPublicPage(row.title, messages), 200, PUBLIC_PAGE_HEADERS);
  });
  return app;
}
