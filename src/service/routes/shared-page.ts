import { Hono } from 'hono';
import type { ServiceContext } from '../context';
import { apiRoutes } from '../../shared/api';
import type { AppEnv } from '../http/app-env';
import { registerRoute } from '../http/register-route';
import { PUBLIC_PAGE_HEADERS, renderNotSharedPage, renderPublicPage } from '../turns/public-page';
import { publicPageWords } from '../turns/public-page-words';
import { looksLikeShareSlug } from '../turns/share-slug';

/**
 * `GET /s/{slug}`: the public, read-only page of a shared conversation, in the reader's language
 * (`Accept-Language`, English by default). No bearer. Unknown or unshared slugs get a small HTML 404
 * page (our choice), with the same noindex headers.
 */
export function sharedPageRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  registerRoute(app, apiRoutes.sharedConversationPage, (c, { params }) => {
    const { slug } = params;
    const words = publicPageWords(c.req.header('Accept-Language'));
    const row = looksLikeShareSlug(slug) ? ctx.turns.store.findShared(slug) : null;
    if (!row)
      return c.html(renderNotSharedPage(words), 404, { ...PUBLIC_PAGE_HEADERS, Vary: 'Accept-Language' });
    const messages = ctx.turns.store.allMessages(row.id).map((m) => ({
      role: m.role,
      content: m.content,
      at: new Date(m.at).toISOString(),
    }));
    return c.html(renderPublicPage(row.title, messages, words), 200, {
      ...PUBLIC_PAGE_HEADERS,
      Vary: 'Accept-Language',
    });
  });
  return app;
}
