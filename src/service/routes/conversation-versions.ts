import type { Context } from 'hono';
import { Hono } from 'hono';
import { apiRoutes, type ConversationVersion, type ConversationVersions } from '../../shared/api';
import { callerAgent, callerAuth, notFound } from '../auth/bearer';
import type { StoredVersion } from '../conversations/conversation-versions';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { refusalJson } from '../http/errors';
import { registerRoute } from '../http/register-route';
import { createConversationService } from '../turns/conversation-service';

const versionBody = (v: StoredVersion): ConversationVersion => ({
  id: v.id,
  desde: v.from,
  mensajes: v.messages.map((m) => ({ role: m.role, content: m.content, at: new Date(m.at).toISOString() })),
  creada: new Date(v.madeAt).toISOString(),
});

/** Our extension: rewind a conversation to a message, and read the earlier versions (docs/extensions.md). */
export function conversationVersionRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const conversations = createConversationService(ctx.conversations, ctx.identity.tokens);
  // As the conversation routes: 409 agente_no_acp for an engine without a machine, then 404 for a
  // conversation that is not the caller's.
  const before = async (c: Context<AppEnv>) => {
    const agent = callerAgent(c);
    if (!ctx.conversations.engine.hasMachine(agent.engine))
      return c.json({ error: 'agente_no_acp', motor: agent.engine }, 409);
    return (await conversations.find(agent.id, callerAuth(c).params['sessionId'] ?? '')) ? null : notFound(c);
  };
  const row = async (c: Context<AppEnv>) =>
    (await conversations.find(callerAgent(c).id, callerAuth(c).params['sessionId'] ?? ''))!;

  registerRoute(
    app,
    apiRoutes.rewindConversation,
    async (c, { body, params }) => {
      const rewound = await conversations.rewind(await row(c), body.hasta);
      if (!rewound.ok)
        return refusalJson(c, rewound.refusal, {
          invalid_point: [400, 'body_invalido'],
          reply_running: [409, 'turno_en_curso'],
        });
      return c.json({ id: params.sessionId, hasta: body.hasta, version: versionBody(rewound.value) });
    },
    { before },
  );

  registerRoute(
    app,
    apiRoutes.listConversationVersions,
    async (c) => {
      const body: ConversationVersions = {
        versiones: (await conversations.versions(await row(c))).map(versionBody),
      };
      return c.json(body);
    },
    { before },
  );

  return app;
}
