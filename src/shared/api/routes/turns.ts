import { PermissionNotFound, QuotaError, Reiniciando } from '../errors';
import { SseMessage } from '../events';
import { ConversationParams, ModelBody, PermissionBody, PostMessageBody } from '../requests';
import { CancelResult, ModelSet, PermissionResult, PostMessageAccepted } from '../responses';
import {
  CONVERSATION,
  defineRoute,
  invalid,
  JSON_BODY_MAX,
  MESSAGE_BODY_MAX,
  noMachine,
  notFound,
  ok,
} from './define-route';

/** Turns (credential OA): send, the event stream, cancel, permission answers, the model. */
export const turnsSection = [
  defineRoute({
    operationId: 'postMessage',
    method: 'POST',
    path: `${CONVERSATION}/messages`,
    tag: 'turns',
    summary: 'Send a message (commission a turn)',
    description:
      'Answers 202 on acceptance, not completion; follow the turn on the events stream. A repeated `turnId` gives `repetido: true` and no second turn. A message to a running turn joins it (`inyectado`) or replaces a closing one (`reemplazoAnterior`). `key` identifies the turn across conversations: `<sessionId>/<turnId>` (our choice).',
    scope: 'agents:write',
    credential: 'oauth',
    request: {
      params: ConversationParams,
      body: { kind: 'json', schema: PostMessageBody, required: true, maxBytes: MESSAGE_BODY_MAX },
    },
    responses: {
      202: ok('Accepted, not finished.', PostMessageAccepted),
      400: invalid('Missing `content` or an invalid field.'),
      402: ok('Allowance exhausted, trial expired, or the model needs the caller’s own key.', QuotaError),
      404: notFound,
      409: noMachine,
      503: {
        description: 'Restart in progress: retry with the SAME `turnId` after `Retry-After`.',
        body: Reiniciando,
        headers: { 'Retry-After': { description: 'Seconds to wait (10).', type: 'integer' } },
      },
    },
  }),
  defineRoute({
    operationId: 'getEvents',
    method: 'GET',
    path: `${CONVERSATION}/events`,
    tag: 'turns',
    summary: 'Subscribe to the conversation’s events (SSE)',
    description:
      'Named events (see the SSE event schemas). On connect, first what the current turn already emitted, then live events; `done {reposo: true}` when idle. Heartbeat: a `: ping` comment every 25 s (our choice). Each event carries an `id:` and `Last-Event-ID` resumes after it (our addition).',
    scope: 'agents:read',
    credential: 'oauth',
    request: {
      params: ConversationParams,
      headers: { 'Last-Event-ID': 'Resume after this event id (our addition).' },
    },
    responses: {
      200: {
        description:
          '`text/event-stream`; each message is an `event:` name with its JSON `data:` (`SseMessage`).',
        body: 'event-stream',
        itemSchema: SseMessage,
      },
      404: notFound,
      409: noMachine,
    },
  }),
  defineRoute({
    operationId: 'cancelTurn',
    method: 'POST',
    path: `${CONVERSATION}/cancel`,
    tag: 'turns',
    summary: 'Cancel the running turn',
    description:
      'Only whoever requested the turn; for anyone else, and when no turn runs, `detenido` is false (our choice).',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: ConversationParams },
    responses: { 200: ok('Whether a turn was stopped.', CancelResult), 404: notFound, 409: noMachine },
  }),
  defineRoute({
    operationId: 'answerPermission',
    method: 'POST',
    path: `${CONVERSATION}/permission`,
    tag: 'turns',
    summary: 'Answer a permission request',
    description:
      '`id` is the `permission` event id, `optionId` one of its `options[].optionId`. Unanswered requests are denied after 10 minutes.',
    scope: 'agents:write',
    credential: 'oauth',
    request: {
      params: ConversationParams,
      body: { kind: 'json', schema: PermissionBody, required: true, maxBytes: JSON_BODY_MAX },
    },
    responses: {
      200: ok('Resolved.', PermissionResult),
      400: invalid('Missing `id` or `optionId`.'),
      404: {
        description:
          'The request is not open (`{resuelto: false, motivo: no_abierto}`), or the conversation does not exist (`not_found`).',
        body: PermissionNotFound,
      },
      409: noMachine,
    },
  }),
  defineRoute({
    operationId: 'setModel',
    method: 'POST',
    path: `${CONVERSATION}/model`,
    tag: 'turns',
    summary: 'Choose the model for the next turns',
    description: 'Values from the `models` event; applies from the next turn.',
    scope: 'agents:write',
    credential: 'oauth',
    request: {
      params: ConversationParams,
      body: { kind: 'json', schema: ModelBody, required: true, maxBytes: JSON_BODY_MAX },
    },
    responses: {
      200: ok(
        'Saved. The spec does not show the body; ours is `{model, aplica: "siguiente_turno"}` (our choice).',
        ModelSet,
      ),
      400: invalid('Missing or unknown model.'),
      404: notFound,
      409: noMachine,
    },
  }),
] as const;
