import { Hono } from 'hono';
import { apiRoutes } from '../../shared/api';
import type { AppEnv } from '../http/app-env';
import { registerRoute } from '../http/register-route';
import { PUBLIC_PAGE_HEADERS, renderNotSharedPage, renderPublicPage } from '../sharing/public-page';
import { publicPageWords } from '../sharing/public-page-words';
import type { ConversationService } from '../turns/conversation-service';

/**
 * `GET /s/{slug}`: the public, read-only page of a shared conversation, in the reader's language
 * (`Accept-Language`, English by default). No bearer. Unknown or unshared slugs get a small HTML 404
 * page (our choice), with the same noindex headers.
 */
export function sharedPageRoutes(conversations: Pick<ConversationService, 'shared'>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  registerRoute(app, apiRoutes.sharedConversationPage, async (c, { params }) => {
    const { slug } = params;
    const words = publicPageWords(c.req.header('Accept-Language'));
    const shared = await conversations.shared(slug);
    if (!shared)
      return c.html(renderNotSharedPage(words), 404, { ...PUBLIC_PAGE_HEADERS, Vary: 'Accept-Language' });
    const messages = shared.messages.map((m) => ({
      role: m.role,
      content: m.content,
      at: new Date(m.at).toISOString(),
    }));
    return c.html(renderPublicPage(shared.title, messages, words), 200, {
      ...PUBLIC_PAGE_HEADERS,
      Vary: 'Accept-Language',
    });
  });
  return app;
}
