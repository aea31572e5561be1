import { Hono } from 'hono';
import { apiRoutes, type ArchivedConversations, type ConversationRestored } from '../../shared/api';
import { callerAgent, notFound } from '../auth/bearer';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { registerRoute } from '../http/register-route';
import { createConversationService } from '../turns/conversation-service';

/** Our extension: archived conversations, listed and brought back (docs/extensions.md). */
export function archivedConversationRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const conversations = createConversationService(ctx.conversations, ctx.identity.tokens);
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  // As the conversation routes: an engine without conversations answers 409 agente_no_acp.
  const machineOnly = {
    before: (c: Parameters<typeof callerAgent>[0]) => {
      const agent = callerAgent(c);
      return ctx.conversations.engine.hasMachine(agent.engine)
        ? null
        : c.json({ error: 'agente_no_acp', motor: agent.engine }, 409);
    },
  };

  registerRoute(
    app,
    apiRoutes.listArchivedConversations,
    async (c) => {
      const archived = await conversations.listArchived(callerAgent(c).id);
      const body: ArchivedConversations = {
        conversaciones: archived.map(({ row, lastTurn: last }) => ({
          id: row.id,
          titulo: row.title,
          actualizada: iso(row.updated_at),
          ultimoTurno: last
            ? { turnId: last.turn_id, estado: last.state, at: new Date(last.at).toISOString() }
            : null,
          archivada: new Date(row.archived_at ?? 0).toISOString(),
        })),
      };
      return c.json(body);
    },
    machineOnly,
  );

  registerRoute(
    app,
    apiRoutes.restoreConversation,
    async (c, { params }) => {
      if (!(await conversations.restore(callerAgent(c).id, params.sessionId))) return notFound(c);
      const body: ConversationRestored = { id: params.sessionId, restaurada: true };
      return c.json(body);
    },
    machineOnly,
  );

  return app;
}
