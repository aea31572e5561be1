import { Hono } from 'hono';
import { apiRoutes, type AgentDeleted, type StartingPoints } from '../../shared/api';
import {
  createAgent,
  deleteAgent,
  type CreateAgentRefusal,
  type DeleteAgentRefusal,
} from '../agent-config/agent-lifecycle';
import { startingPoints } from '../agent-config/starting-points';
import { callerAuth } from '../auth/bearer';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { refusalJson, type RefusalAnswers } from '../http/errors';
import { registerRoute } from '../http/register-route';
import { toAgente } from './me';

const createRefusals: RefusalAnswers<CreateAgentRefusal> = {
  unknown_starting_point: [400, 'inicio_desconocido'],
  too_many_agents: [409, 'demasiados_agentes'],
};
const deleteRefusals: RefusalAnswers<DeleteAgentRefusal> = {
  not_found: [404, 'not_found'],
  last_agent: [409, 'ultimo_agente'],
  reply_running: [409, 'turno_en_curso'],
};

/** Our extension: the person makes and deletes agents (docs/extensions.md). The /api/v2 guard checked the caller. */
export function agentManagementRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  registerRoute(app, apiRoutes.agentStartingPoints, (c) => {
    const body: StartingPoints = {
      inicios: startingPoints().map(({ id, name, description, skills }) => ({
        id,
        nombre: name,
        descripcion: description,
        skills,
      })),
    };
    return c.json(body);
  });

  registerRoute(app, apiRoutes.createAgent, async (c, { body }) => {
    const wanted = { name: body.nombre, startingPoint: body.inicio };
    const made = await createAgent(ctx, callerAuth(c).personId, wanted);
    if (!made.ok) return refusalJson(c, made.refusal, createRefusals);
    return c.json(toAgente(made.value), 201);
  });

  registerRoute(app, apiRoutes.deleteAgent, async (c, { params }) => {
    const deleted = await deleteAgent(ctx, callerAuth(c).personId, params.agentId);
    if (!deleted.ok) return refusalJson(c, deleted.refusal, deleteRefusals);
    const answer: AgentDeleted = { borrado: true };
    return c.json(answer);
  });

  return app;
}
