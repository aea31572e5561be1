import { z } from 'zod';
import { DateTime } from '../common';
import { ErrorBody } from '../errors';
import { ChatMessage } from '../message';
import { ConversationParams } from '../requests';
import { CONVERSATION, defineRoute, invalid, JSON_BODY_MAX, noMachine, notFound, ok } from './define-route';

/**
 * Our extension (docs/extensions.md): Retry and Edit in place. A conversation is rewound to a message: the
 * messages from there on leave it (and the agent's context) and are kept as an earlier version, readable
 * beside the one that follows. A client detects it by `rewindConversation` in `/openapi.yaml`.
 */

/** Rewind to before message `hasta` (0-based): the first `hasta` messages stay. */
export const RewindConversationBody = z.strictObject({ hasta: z.number().int().min(0) });
export type RewindConversationBody = z.infer<typeof RewindConversationBody>;

/** An earlier version: the messages a rewind cut off, from message `desde` on. */
export const ConversationVersion = z.looseObject({
  id: z.string(),
  desde: z.number().int().min(0),
  mensajes: z.array(ChatMessage),
  creada: DateTime,
});
export type ConversationVersion = z.infer<typeof ConversationVersion>;
export const ConversationRewound = z.looseObject({
  id: z.string(),
  hasta: z.number(),
  version: ConversationVersion,
});
export type ConversationRewound = z.infer<typeof ConversationRewound>;
export const ConversationVersions = z.looseObject({ versiones: z.array(ConversationVersion) });
export type ConversationVersions = z.infer<typeof ConversationVersions>;

export const conversationVersionsSection = [
  defineRoute({
    operationId: 'rewindConversation',
    method: 'POST',
    path: `${CONVERSATION}/rewind`,
    tag: 'conversations',
    summary: 'Rewind a conversation to a message, keeping what followed as an earlier version',
    description:
      'Our extension (docs/extensions.md, docs/turns.md). Body `{hasta}`: the first `hasta` messages stay; the rest leave the conversation and are kept as an earlier version (GET versions). The agent’s session for the conversation is forgotten: the next message starts a new one, given the messages that stayed (as a fork’s are). 409 `turno_en_curso` while a turn runs or waits.',
    scope: 'agents:write',
    credential: 'oauth',
    request: {
      params: ConversationParams,
      body: { kind: 'json', schema: RewindConversationBody, required: true, maxBytes: JSON_BODY_MAX },
    },
    responses: {
      200: ok('Rewound; `version` holds the messages it cut off.', ConversationRewound),
      400: invalid('`hasta` is not below the number of messages.'),
      404: notFound,
      409: ok(
        'A turn runs or waits (`turno_en_curso`), or the engine has no machine (`agente_no_acp`).',
        ErrorBody,
      ),
    },
    extension: true,
  }),
  defineRoute({
    operationId: 'listConversationVersions',
    method: 'GET',
    path: `${CONVERSATION}/versions`,
    tag: 'conversations',
    summary: 'The earlier versions of a conversation, each where it branched off',
    description:
      'Our extension. Every version a rewind kept, ordered by `desde` and then by when it was made. The live messages from `desde` on are the newest version.',
    scope: 'agents:read',
    credential: 'oauth',
    request: { params: ConversationParams },
    responses: { 200: ok('The earlier versions.', ConversationVersions), 404: notFound, 409: noMachine },
    extension: true,
  }),
] as const;
