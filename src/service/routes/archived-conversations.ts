import { Hono } from 'hono';
import { apiRoutes, type ArchivedConversations, type ConversationRestored } from '../../shared/api';
import { callerAgent, notFound } from '../auth/bearer';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { registerRoute } from '../http/register-route';

/** Our extension: archived conversations, listed and brought back (docs/extensions.md). */
export function archivedConversationRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
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
      const { store, archived } = ctx.conversations;
      const rows = await archived.list(callerAgent(c).id);
      const lastTurns = await Promise.all(rows.map((row) => store.lastTurn(row.id)));
      const body: ArchivedConversations = {
        conversaciones: rows.map((row, index) => {
          const last = lastTurns[index];
          return {
            id: row.id,
            titulo: row.title,
            actualizada: iso(row.updated_at),
            ultimoTurno: last
              ? { turnId: last.turn_id, estado: last.state, at: new Date(last.at).toISOString() }
              : null,
            archivada: new Date(row.archived_at ?? 0).toISOString(),
          };
        }),
      };
      return c.json(body);
    },
    machineOnly,
  );

  registerRoute(
    app,
    apiRoutes.restoreConversation,
    async (c, { params }) => {
      if (!(await ctx.conversations.archived.restore(callerAgent(c).id, params.sessionId)))
        return notFound(c);
      const body: ConversationRestored = { id: params.sessionId, restaurada: true };
      return c.json(body);
    },
    machineOnly,
  );

  return app;
}
