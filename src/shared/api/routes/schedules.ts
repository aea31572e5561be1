import { ConversationParams, ScheduleBody, ScheduleItemParams } from '../requests';
import { ScheduleCancelled, ScheduleCreated, ScheduleListResponse } from '../responses';
import { CONVERSATION, defineRoute, invalid, JSON_BODY_MAX, noMachine, notFound, ok } from './define-route';

/** Scheduled turns of a conversation (credential OA; a part of the spec's "Turns" table). */
export const schedulesSection = [
  defineRoute({
    operationId: 'listSchedule',
    method: 'GET',
    path: `${CONVERSATION}/schedule`,
    tag: 'turns',
    summary: 'List scheduled turns',
    scope: 'agents:read',
    credential: 'oauth',
    request: { params: ConversationParams },
    responses: { 200: ok('Scheduled turns.', ScheduleListResponse), 404: notFound, 409: noMachine },
  }),
  defineRoute({
    operationId: 'createSchedule',
    method: 'POST',
    path: `${CONVERSATION}/schedule`,
    tag: 'turns',
    summary: 'Schedule a turn',
    description:
      'Give exactly one of `inMinutes` or `dueAt` (our choice: both is an error). `repeatMin` makes it periodic, `until` bounds it. A turn missed while the service was down fires once on start (our choice).',
    scope: 'agents:write',
    credential: 'oauth',
    request: {
      params: ConversationParams,
      body: { kind: 'json', schema: ScheduleBody, required: true, maxBytes: JSON_BODY_MAX },
    },
    responses: {
      201: ok('Scheduled.', ScheduleCreated),
      400: invalid('`body_invalido` or a validation error with `detalle`.'),
      404: notFound,
      409: noMachine,
    },
  }),
  defineRoute({
    operationId: 'cancelSchedule',
    method: 'DELETE',
    path: `${CONVERSATION}/schedule/{id}`,
    tag: 'turns',
    summary: 'Cancel a scheduled turn',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: ScheduleItemParams },
    responses: {
      200: ok(
        'Cancelled. The spec does not show the body; ours is `{id, cancelado: true}` (our choice).',
        ScheduleCancelled,
      ),
      404: notFound,
      409: noMachine,
    },
  }),
] as const;
