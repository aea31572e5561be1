import { z } from 'zod';
import { AgentName, PersonAgentParams } from '../requests';
import { Agente } from '../resources';
import { defineRoute, invalid, JSON_BODY_MAX, notFound, ok } from './define-route';

/**
 * Our extension (docs/extensions.md): the person makes and removes agents. The spec lists agents, enrols the
 * first one and renames through PATCH `name`, but has no creation or deletion. A client detects the
 * extension by GET `agentStartingPoints` answering 200 (a spec-only server: 404).
 */

/** A starting point for a new agent: a prompt and skills of the service's community catalog. */
export const StartingPoint = z.looseObject({
  id: z.string(),
  nombre: z.string(),
  descripcion: z.string(),
  /** Catalog skills installed into a new agent made from it. */
  skills: z.array(z.string()),
});
export type StartingPoint = z.infer<typeof StartingPoint>;
export const StartingPoints = z.looseObject({ inicios: z.array(StartingPoint) });
export type StartingPoints = z.infer<typeof StartingPoints>;

export const CreateAgentBody = z.strictObject({
  nombre: AgentName,
  /** The `id` of a starting point; absent: an empty agent (the service's default prompt, no skills). */
  inicio: z.string().min(1).max(64).optional(),
});
export type CreateAgentBody = z.infer<typeof CreateAgentBody>;
export const AgentDeleted = z.looseObject({ borrado: z.literal(true) });
export type AgentDeleted = z.infer<typeof AgentDeleted>;

export const agentManagementSection = [
  defineRoute({
    operationId: 'agentStartingPoints',
    method: 'GET',
    path: '/api/v2/me/agent-starts',
    tag: 'account',
    summary: 'Starting points for a new agent (and whether this server makes agents at all)',
    description:
      'Our extension. Each starting point is a prompt and skills of the community catalog. A 200 tells a client that POST and DELETE of `/api/v2/me/agents` exist here.',
    scope: 'agents:read',
    credential: 'oauth',
    request: {},
    responses: { 200: ok('The starting points.', StartingPoints) },
    extension: true,
  }),
  defineRoute({
    operationId: 'createAgent',
    method: 'POST',
    path: '/api/v2/me/agents',
    tag: 'account',
    summary: 'Make a new agent',
    description:
      'Our extension. A machine agent on the default engine, with its own prompt, model, workspace and conversations; `inicio` applies a starting point (its prompt, its catalog skills).',
    scope: 'agents:write',
    credential: 'oauth',
    request: { body: { kind: 'json', schema: CreateAgentBody, required: true, maxBytes: JSON_BODY_MAX } },
    responses: {
      201: ok('The new agent, as in the agent list.', Agente),
      400: invalid(
        'No name, a name over 64 characters, or an unknown starting point (`inicio_desconocido`).',
      ),
      409: invalid('The person has too many agents (`demasiados_agentes`).'),
    },
    extension: true,
  }),
  defineRoute({
    operationId: 'deleteAgent',
    method: 'DELETE',
    path: '/api/v2/me/agents/{agentId}',
    tag: 'account',
    summary: 'Delete an agent with its conversations, workspace, skills and tokens',
    description:
      'Our extension. Stops the agent, then deletes its conversations, schedules, workspace files, skills, settings and agent tokens. The last agent of an account cannot be deleted (409 `ultimo_agente`), nor one whose reply is running (409 `turno_en_curso`: cancel it first).',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: PersonAgentParams },
    responses: {
      200: ok('Deleted.', AgentDeleted),
      404: notFound,
      409: invalid(
        'It is the account’s only agent (`ultimo_agente`), or a reply of it is still running (`turno_en_curso`).',
      ),
    },
    extension: true,
  }),
] as const;
