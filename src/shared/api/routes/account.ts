import { DeletedAccount, MeAgentsResponse } from '../responses';
import { defineRoute, invalid, ok } from './define-route';

/** Account and agents (credential OA): `/api/v2/me` and the agent list. */
export const accountSection = [
  defineRoute({
    operationId: 'deleteMe',
    method: 'DELETE',
    path: '/api/v2/me',
    tag: 'account',
    summary: 'Delete the account',
    description: 'Deletes agents, machines, conversations and files.',
    scope: 'agents:write',
    credential: 'oauth',
    request: {},
    responses: {
      200: ok('Deleted.', DeletedAccount),
      409: invalid('A blocker exists (e.g. owner of a space with members).'),
    },
  }),
  defineRoute({
    operationId: 'getMyAgents',
    method: 'GET',
    path: '/api/v2/me/agents',
    tag: 'account',
    summary: 'List the person’s agents',
    description:
      'With the `profile` scope the e-mail is included. An empty account gets its first agent enrolled before answering.',
    scope: 'agents:read',
    credential: 'oauth',
    request: {},
    responses: { 200: ok('Agents and the person.', MeAgentsResponse) },
  }),
] as const;
