import type { Context, MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import type { z } from 'zod';
import type {
  Compartida,
  ConversationCreated,
  ConversationResponse,
  ConversationsResponse,
} from '../../shared/api';
import {
  DEFAULT_CONVERSATION_TAIL,
  LIMITS,
  ModelBody,
  PatchConversationBody,
  PermissionBody,
  PostMessageBody,
  ScheduleBody,
  describeZodError,
  type TurnoProgramado,
  type TurnoResumen,
} from '../../shared/api';
import { callerAgent, callerAuth, notFound } from '../auth/bearer';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson } from '../http/errors';
import { decodeUtf8, readBodyLimited } from '../http/read-body';
import { sha256Hex } from '../security/token-hash';
import type { ConversationRow, StoredSchedule, TurnSummaryRow } from '../turns/conversation-store';
import { planFromBody } from '../turns/schedule-rules';
import { newShareSlug } from '../turns/share-slug';
import { eventStreamResponse } from '../turns/sse-stream';
import { sharedPageRoutes } from './shared-page';

/**
 * Conversations and turns: `/api/v2/me/agents/{agentId}/conversations/...` and the public page
 * `/s/{slug}`. The /api/v2 guard has already checked the bearer, the scope and that the agent is
 * the caller's. Our choices where the spec is silent are noted where they are made.
 */

const BASE = '/api/v2/me/agents/:agentId/conversations';
const ONE = `${BASE}/:sessionId`;

/** A POST messages body carries up to 8 base64 attachments; anything else is small. */
const MESSAGE_BODY_MAX = 64 * 1024 * 1024;
const SMALL_BODY_MAX = 1024 * 1024;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function turnoResumen(row: TurnSummaryRow | null): TurnoResumen | null {
  return row ? { turnId: row.turn_id, estado: row.estado, at: new Date(row.at).toISOString() } : null;
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

type JsonRead = { ok: true; value: unknown } | { ok: false; response: Response };

/** Reads a JSON body: 413 past `max`, 400 `body_invalido` for bad UTF-8 or bad JSON. */
async function readJson(c: Context, max: number): Promise<JsonRead> {
  const bytes = await readBodyLimited(c.req.raw, max);
  if (bytes === 'too_large') {
    return {
      ok: false,
      response: errorJson(c, 413, 'body_demasiado_grande', 'The request body is too large.'),
    };
  }
  const text = decodeUtf8(bytes);
  if (text === null) {
    return { ok: false, response: errorJson(c, 400, 'body_invalido', 'The body is not valid UTF-8.') };
  }
  try {
    return { ok: true, value: text.trim() === '' ? undefined : (JSON.parse(text) as unknown) };
  } catch {
    return { ok: false, response: errorJson(c, 400, 'body_invalido', 'The body is not valid JSON.') };
  }
}

/** Validates a JSON body against a contract schema; errors are 400 `{error, detalle}`. */
async function readBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  error: string,
  max = SMALL_BODY_MAX,
): Promise<{ ok: true; value: z.infer<S> } | { ok: false; response: Response }> {
  const read = await readJson(c, max);
  if (!read.ok) return read;
  if (typeof read.value !== 'object' || read.value === null || Array.isArray(read.value)) {
    return { ok: false, response: errorJson(c, 400, 'body_invalido', 'The body must be a JSON object.') };
  }
  const parsed = schema.safeParse(read.value);
  if (!parsed.success)
    return { ok: false, response: errorJson(c, 400, error, describeZodError(parsed.error)) };
  return { ok: true, value: parsed.data };
}

/**
 * Who commissioned a turn, for "only the requester may cancel or replace it": the OAuth grant
 * family (one sign-in of one client on one device; it survives token refreshes). Two sign-ins
 * of the same person are two requesters (our reading of the spec).
 */
const familyStatements = new WeakMap<ServiceContext, { get(hash: string): unknown }>();

function requesterOf(ctx: ServiceContext, c: Context<AppEnv>): string {
  const principal = callerAuth(c).principal;
  const token = /^Bearer\s+(\S+)/i.exec(c.req.header('Authorization') ?? '')?.[1];
  if (token) {
    let byHash = familyStatements.get(ctx);
    if (!byHash) {
      byHash = ctx.db.prepare('SELECT family_id FROM oauth_tokens WHERE token_hash = ?');
      familyStatements.set(ctx, byHash);
    }
    const row = byHash.get(sha256Hex(token)) as { family_id: string } | undefined;
    if (row) return `grant:${row.family_id}`;
  }
  return principal.kind === 'oauth' ? `client:${principal.clientId}` : `agent:${principal.agentId}`;
}

export function conversationRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const turns = () => ctx.turns;

  /** 409 `agente_no_acp` for engines without a machine, before anything else runs. */
  const machineOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
    const agent = callerAgent(c);
    if (!turns().engine.hasMachine(agent.engine)) {
      return c.json({ error: 'agente_no_acp', motor: agent.engine }, 409);
    }
    await next();
  };
  app.use(BASE, machineOnly);
  app.use(`${BASE}/*`, machineOnly);

  /** The caller's live conversation named by the path, or null (then answer 404). */
  function conversation(c: Context<AppEnv>): ConversationRow | null {
    return turns().store.find(callerAgent(c).id, c.req.param('sessionId') ?? '');
  }

  // --- Conversations ---------------------------------------------------------------------

  app.get(BASE, (c) => {
    const { store } = turns();
    const body: ConversationsResponse = {
      conversaciones: store.list(callerAgent(c).id).map((row) => ({
        id: row.id,
        titulo: row.title,
        actualizada: iso(row.updated_at),
        ultimoTurno: turnoResumen(store.lastTurn(row.id)),
      })),
    };
    return c.json(body);
  });

  app.post(BASE, (c) => {
    const agent = callerAgent(c);
    const id = turns().store.create(agent.id, callerAuth(c).personId, turns().timers.now());
    const body: ConversationCreated = { id };
    return c.json(body, 201);
  });

  app.get(ONE, (c) => {
    const row = conversation(c);
    if (!row) return notFound(c);
    const raw = c.req.query('limit');
    let limit = DEFAULT_CONVERSATION_TAIL;
    if (raw !== undefined) {
      limit = Number(raw);
      if (!/^\d+$/.test(raw) || !Number.isSafeInteger(limit)) {
        return errorJson(c, 400, 'body_invalido', 'limit must be a non-negative integer');
      }
    }
    const { store } = turns();
    const tail = store.tail(row.id, limit);
    const body: ConversationResponse = {
      messages: tail.messages.map((m) => ({
        role: m.role,
        content: m.content,
        at: new Date(m.at).toISOString(),
      })),
      saltados: tail.saltados,
      ultimoTurno: turnoResumen(store.lastTurn(row.id)),
    };
    return c.json(body);
  });

  app.patch(ONE, async (c) => {
    const row = conversation(c);
    if (!row) return notFound(c);
    const read = await readBody(c, PatchConversationBody, 'body_invalido');
    if (!read.ok) return read.response;
    turns().store.rename(row.id, read.value.title);
    // Body not shown by the spec; ours echoes the new title.
    return c.json({ id: row.id, titulo: read.value.title });
  });

  app.delete(ONE, async (c) => {
    const row = conversation(c);
    if (!row) return notFound(c);
    await turns().manager.forget(row.id);
    turns().store.archive(row.id, turns().timers.now());
    // The agent may drop the conversation's session too; its memory is not needed any more.
    await turns()
      .engine.forgetConversation(row.agent_id, row.id)
      .catch(() => undefined);
    turns().scheduler.changed();
    // Body not shown by the spec; ours says it is archived.
    return c.json({ id: row.id, archivada: true });
  });

  // --- Sharing ---------------------------------------------------------------------------

  const compartida = (row: ConversationRow): Compartida =>
    row.share_slug ? { compartida: true, slug: row.share_slug } : { compartida: false };

  app.get(`${ONE}/share`, (c) => {
    const row = conversation(c);
    return row ? c.json(compartida(row)) : notFound(c);
  });

  app.post(`${ONE}/share`, (c) => {
    const row = conversation(c);
    if (!row) return notFound(c);
    // Sharing again keeps the same link.
    const slug = row.share_slug ?? newShareSlug();
    if (!row.share_slug) turns().store.setShareSlug(row.id, slug);
    return c.json({ compartida: true, slug } satisfies Compartida);
  });

  app.delete(`${ONE}/share`, (c) => {
    const row = conversation(c);
    if (!row) return notFound(c);
    turns().store.setShareSlug(row.id, null);
    return c.json({ compartida: false } satisfies Compartida);
  });

  // --- Turns -----------------------------------------------------------------------------

  app.post(`${ONE}/messages`, async (c) => {
    const row = conversation(c);
    if (!row) return notFound(c);
    const read = await readBody(c, PostMessageBody, 'body_invalido', MESSAGE_BODY_MAX);
    if (!read.ok) return read.response;
    const body = read.value;
    const agent = callerAgent(c);
    const result = turns().manager.submit({
      agentId: agent.id,
      engine: agent.engine,
      personId: callerAuth(c).personId,
      conversationId: row.id,
      requester: requesterOf(ctx, c),
      requestId: body.turnId,
      content: body.content,
      images: body.images,
      primerTurno: body.primerTurno,
      permisos: body.permisos,
    });
    if (result.kind === 'draining') {
      return c.json({ error: 'reiniciando' }, 503, {
        'Retry-After': String(LIMITS.restartRetryAfterSeconds),
      });
    }
    if (result.kind === 'quota_exhausted') {
      return c.json({ error: 'quota_exhausted', message: result.message }, 402);
    }
    return c.json(result.body, 202);
  });

  app.get(`${ONE}/events`, (c) => {
    const row = conversation(c);
    if (!row) return notFound(c);
    const { manager, heartbeats } = turns();
    return eventStreamResponse(
      c,
      { subscribe: (listener, lastEventId) => manager.subscribe(row.id, listener, lastEventId) },
      heartbeats,
    );
  });

  app.post(`${ONE}/cancel`, async (c) => {
    const row = conversation(c);
    if (!row) return notFound(c);
    // Refused for anyone but the requester: `detenido: false` with `motivo` (our addition).
    return c.json(await turns().manager.cancel(row.id, requesterOf(ctx, c)));
  });

  app.post(`${ONE}/permission`, async (c) => {
    const row = conversation(c);
    if (!row) return notFound(c);
    const read = await readBody(c, PermissionBody, 'body_invalido');
    if (!read.ok) return read.response;
    const outcome = turns().manager.resolvePermission(row.id, read.value.id, read.value.optionId);
    if (outcome === 'resolved') return c.json({ resuelto: true });
    if (outcome === 'bad-option') {
      return errorJson(c, 400, 'body_invalido', 'optionId is not one of the options of that permission');
    }
    return c.json({ resuelto: false, motivo: 'no_abierto' }, 404);
  });

  app.post(`${ONE}/model`, async (c) => {
    const row = conversation(c);
    if (!row) return notFound(c);
    const read = await readBody(c, ModelBody, 'body_invalido');
    if (!read.ok) return read.response;
    const known = turns().manager.knownModels(row.id);
    if (known && known.length > 0 && !known.some((m) => m.id === read.value.model)) {
      return errorJson(
        c,
        400,
        'modelo_invalido',
        `model must be one of: ${known.map((m) => m.id).join(', ')}`,
      );
    }
    turns().store.setModel(row.id, read.value.model);
    // Body not shown by the spec; ours names the model and when it applies.
    return c.json({ model: read.value.model, aplica: 'siguiente_turno' });
  });

  // --- Schedules -------------------------------------------------------------------------

  app.get(`${ONE}/schedule`, (c) => {
    const row = conversation(c);
    if (!row) return notFound(c);
    return c.json({ programados: turns().store.schedulesOf(row.id).map(programado) });
  });

  app.post(`${ONE}/schedule`, async (c) => {
    const row = conversation(c);
    if (!row) return notFound(c);
    const read = await readBody(c, ScheduleBody, 'body_invalido');
    if (!read.ok) return read.response;
    const { timers, store, scheduler } = turns();
    const planned = planFromBody(read.value, timers.now());
    if (!planned.ok) return errorJson(c, 400, planned.error, planned.detalle);
    const item = { id: crypto.randomUUID(), ...planned.plan };
    store.addSchedule(row.id, item, timers.now());
    scheduler.changed();
    return c.json({ programado: programado({ ...item, conversationId: row.id }) }, 201);
  });

  app.delete(`${ONE}/schedule/:id`, (c) => {
    const row = conversation(c);
    if (!row) return notFound(c);
    if (!turns().store.cancelSchedule(row.id, c.req.param('id'))) return notFound(c);
    turns().scheduler.changed();
    // Body not shown by the spec; ours says it is cancelled.
    return c.json({ id: c.req.param('id'), cancelado: true });
  });

  app.route('/', sharedPageRoutes(ctx));
  return app;
}
