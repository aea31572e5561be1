import { Hono } from 'hono';
import { apiRoutes, type AgentDeleted, type StartingPoints } from '../../shared/api';
import { createAgent, deleteAgent } from '../agent-config/agent-lifecycle';
import { startingPoints } from '../agent-config/starting-points';
import { callerAuth } from '../auth/bearer';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson } from '../http/errors';
import { registerRoute } from '../http/register-route';
import { toAgente } from './me';

/** Our extension: the person makes and deletes agents (docs/extensions.md). The /api/v2 guard checked the caller. */
export function agentManagementRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  registerRoute(app, apiRoutes.agentStartingPoints, (c) => {
    const body: StartingPoints = {
      inicios: startingPoints().map(({ id, nombre, descripcion, skills }) => ({
        id,
        nombre,
        descripcion,
        skills,
      })),
    };
    return c.json(body);
  });

  registerRoute(app, apiRoutes.createAgent, async (c, { body }) => {
    const made = await createAgent(ctx, callerAuth(c).personId, body);
    if (!made.ok) return errorJson(c, made.status, made.error, made.detalle);
    return c.json(toAgente(made.agent), 201);
  });

  registerRoute(app, apiRoutes.deleteAgent, async (c, { params }) => {
    const deleted = await deleteAgent(ctx, callerAuth(c).personId, params.agentId);
    if (!deleted.ok) return errorJson(c, deleted.status, deleted.error, deleted.detalle);
    const answer: AgentDeleted = { borrado: true };
    return c.json(answer);
  });

  return app;
}
