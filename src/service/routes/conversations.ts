import type { Context } from 'hono';
import { Hono } from 'hono';
import {
  DEFAULT_CONVERSATION_TAIL,
  LIMITS,
  apiRoutes,
  type Compartida,
  type ConversationCreated,
  type ConversationResponse,
  type ConversationsResponse,
  type RouteSpec,
  type TurnoProgramado,
  type TurnoResumen,
} from '../../shared/api';
import { authenticate, callerAgent, callerAuth, notFound, readBearer } from '../auth/bearer';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson, refusalJson } from '../http/errors';
import { registerRoute, type RouteHandler } from '../http/register-route';
import { ownKeyMissing } from '../providers/own-key';
import { StreamGrantWatch } from '../http/stream-grant-watch';
import type { ConversationRow, StoredSchedule, TurnSummaryRow } from '../conversations/conversation-store';
import { createConversationService } from '../turns/conversation-service';
import { eventStreamResponse } from '../turns/sse-stream';
import { sharedPageRoutes } from './shared-page';
import { acceptedJson, cancelJson } from './turn-bodies';

/**
 * Conversations, turns and scheduled turns: `/api/v2/me/agents/{agentId}/conversations/...`, and the public
 * page `/s/{slug}`. The /api/v2 guard has already checked the bearer, the scope and that the agent is the
 * caller's. Our choices where the spec is silent are noted where they are made.
 */

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function turnoResumen(row: TurnSummaryRow | null): TurnoResumen | null {
  return row ? { turnId: row.turn_id, estado: row.state, at: new Date(row.at).toISOString() } : null;
}

function programado(item: StoredSchedule): TurnoProgramado {
  return {
    id: item.id,
    prompt: item.prompt,
    dueAt: new Date(item.dueAt).toISOString(),
    repeatMin: item.repeatMin,
    until: iso(item.until),
  };
}

const compartida = (slug: string | null): Compartida =>
  slug ? { compartida: true, slug } : { compartida: false };

export function conversationRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const conversations = createConversationService(ctx.conversations, ctx.identity.tokens);

  /** 409 `agente_no_acp` for engines without a machine, before anything else runs. */
  const machineOnly = (c: Context<AppEnv>): Response | null => {
    const agent = callerAgent(c);
    return ctx.conversations.engine.hasMachine(agent.engine)
      ? null
      : c.json({ error: 'agente_no_acp', motor: agent.engine }, 409);
  };
  const find = (c: Context<AppEnv>) =>
    conversations.find(callerAgent(c).id, callerAuth(c).params['sessionId'] ?? '');

  /** A route on the whole list: the machine check first. */
  const onList = <R extends RouteSpec>(route: R, handler: RouteHandler<R>) =>
    registerRoute(app, route, handler, { before: machineOnly });

  /** The conversation each request of `onOne` found in its `before`, so it is looked up once. */
  const found = new WeakMap<Context<AppEnv>, ConversationRow>();
  /** A route on one conversation: the machine check, then 404 for a conversation that is not the caller's. */
  const onOne = <R extends RouteSpec>(
    route: R,
    handler: (...args: [...Parameters<RouteHandler<R>>, ConversationRow]) => Response | Promise<Response>,
  ) =>
    registerRoute(
      app,
      route,
      (c, input) => {
        const row = found.get(c);
        return row ? handler(c, input, row) : notFound(c);
      },
      {
        before: async (c) => {
          const refused = machineOnly(c);
          if (refused) return refused;
          const row = await find(c);
          if (!row) return notFound(c);
          found.set(c, row);
          return null;
        },
      },
    );

  const requester = (c: Context<AppEnv>) =>
    conversations.requesterOf(callerAuth(c).principal, readBearer(c.req.header('Authorization')));

  // --- Conversations ---------------------------------------------------------------------

  onList(apiRoutes.listConversations, async (c) => {
    const body: ConversationsResponse = {
      conversaciones: (await conversations.list(callerAgent(c).id)).map(({ row, lastTurn }) => ({
        id: row.id,
        titulo: row.title,
        actualizada: iso(row.updated_at),
        ultimoTurno: turnoResumen(lastTurn),
      })),
    };
    return c.json(body);
  });

  onList(apiRoutes.createConversation, async (c) => {
    const body: ConversationCreated = {
      id: await conversations.create(callerAgent(c).id, callerAuth(c).personId),
    };
    return c.json(body, 201);
  });

  onOne(apiRoutes.getConversation, async (c, { query }, row) => {
    const read = await conversations.read(row, query.limit ?? DEFAULT_CONVERSATION_TAIL);
    const body: ConversationResponse = {
      messages: read.messages.map((m) => ({
        role: m.role,
        content: m.content,
        at: new Date(m.at).toISOString(),
      })),
      saltados: read.skipped,
      ultimoTurno: turnoResumen(read.lastTurn),
    };
    return c.json(body);
  });

  onOne(apiRoutes.renameConversation, async (c, { body }, row) => {
    await conversations.rename(row, body.title);
    // Body not shown by the spec; ours echoes the new title.
    return c.json({ id: row.id, titulo: body.title });
  });

  onOne(apiRoutes.archiveConversation, async (c, _input, row) => {
    await conversations.archive(row);
    // Body not shown by the spec; ours says it is archived.
    return c.json({ id: row.id, archivada: true });
  });

  // Our extension: a new conversation with this one's messages up to a point (docs/extensions.md).
  onOne(apiRoutes.forkConversation, async (c, { body }, row) => {
    const at = 'hasta' in body ? { firstMessages: body.hasta } : body;
    const forked = await conversations.fork(row, at);
    if (!forked.ok) {
      // The refusal names the point as the body did.
      const message = forked.refusal.message.replace(/^firstMessages\b/, 'hasta');
      return errorJson(c, 400, 'body_invalido', message);
    }
    return c.json({ id: forked.value.id, titulo: forked.value.title }, 201);
  });

  // --- Sharing ---------------------------------------------------------------------------

  onOne(apiRoutes.getShare, (c, _input, row) => c.json(compartida(row.share_slug)));
  onOne(apiRoutes.share, async (c, _input, row) => c.json(compartida(await conversations.share(row))));
  onOne(apiRoutes.unshare, async (c, _input, row) => {
    await conversations.unshare(row);
    return c.json(compartida(null));
  });

  // --- Turns -----------------------------------------------------------------------------

  onOne(apiRoutes.postMessage, async (c, { body }, row) => {
    const who = {
      engine: callerAgent(c).engine,
      personId: callerAuth(c).personId,
      requester: await requester(c),
    };
    const noKey = await ownKeyMissing(ctx, callerAgent(c));
    if (noKey) return c.json({ error: 'own_key_required', message: noKey }, 402);
    const result = await conversations.submit(row, who, {
      turnId: body.turnId,
      content: body.content,
      attachments: body.images,
      firstTurn: body.primerTurno,
      permissionMode: body.permisos,
    });
    if (result.kind === 'draining') {
      return c.json({ error: 'reiniciando' }, 503, {
        'Retry-After': String(LIMITS.restartRetryAfterSeconds),
      });
    }
    if (result.kind === 'quota_exhausted') {
      return c.json({ error: 'quota_exhausted', message: result.message }, 402);
    }
    return c.json(acceptedJson(result.accepted), 202);
  });

  // The stream ends when the bearer that opened it stops being good (revoked, expired, account deleted).
  const grantWatch = new StreamGrantWatch();
  onOne(apiRoutes.getEvents, (c, _input, row) => {
    const bearer = readBearer(c.req.header('Authorization')) ?? '';
    return grantWatch.watch(
      eventStreamResponse(
        c,
        { subscribe: (listener, lastEventId) => conversations.subscribe(row, listener, lastEventId) },
        ctx.conversations.heartbeats,
      ),
      bearer,
      async () => (await authenticate(ctx, bearer)) !== null,
    );
  });

  // Refused for anyone but the requester: `detenido: false` with `motivo` (our addition).
  onOne(apiRoutes.cancelTurn, async (c, _input, row) =>
    c.json(cancelJson(await conversations.cancel(row, await requester(c)))),
  );

  onOne(apiRoutes.answerPermission, (c, { body }, row) => {
    const outcome = conversations.answerPermission(row, body.id, body.optionId);
    if (outcome === 'resolved') return c.json({ resuelto: true });
    if (outcome === 'bad-option') {
      return errorJson(c, 400, 'body_invalido', 'optionId is not one of the options of that permission');
    }
    return c.json({ resuelto: false, motivo: 'no_abierto' }, 404);
  });

  onOne(apiRoutes.setModel, async (c, { body }, row) => {
    const changed = await conversations.setModel(row, body.model, callerAgent(c).engine);
    if (!changed.ok) {
      const offered = changed.known.join(', ') || 'none could be read from the agent';
      return errorJson(c, 400, 'modelo_invalido', `model must be one of the agent's models (${offered})`);
    }
    // Body not shown by the spec; ours names the model and when it applies.
    return c.json({ model: body.model, aplica: 'siguiente_turno' });
  });

  // --- Schedules -------------------------------------------------------------------------

  onOne(apiRoutes.listSchedule, async (c, _input, row) =>
    c.json({ programados: (await conversations.schedules(row)).map(programado) }),
  );

  onOne(apiRoutes.createSchedule, async (c, { body }, row) => {
    const added = await conversations.addSchedule(row, body);
    if (!added.ok) return refusalJson(c, added.refusal, { invalid: [400, 'body_invalido'] });
    return c.json({ programado: programado(added.value) }, 201);
  });

  onOne(apiRoutes.cancelSchedule, async (c, { params }, row) => {
    if (!(await conversations.cancelSchedule(row, params.id))) return notFound(c);
    // Body not shown by the spec; ours says it is cancelled.
    return c.json({ id: params.id, cancelado: true });
  });

  app.route('/', sharedPageRoutes(conversations));
  return app;
}
