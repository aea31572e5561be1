import { z } from 'zod';
import { ConversationParams, PersonAgentParams } from '../requests';
import { DateTime } from '../common';
import { ConversationListItem } from '../resources';
import { defineRoute, noMachine, notFound, ok } from './define-route';

/**
 * Our extension (docs/extensions.md): archived conversations can be listed and brought back. The spec's
 * DELETE archives a conversation and offers no way to find it again. A client detects the extension by
 * these operations in `/openapi.yaml` (marked `x-agentdesk-extension`).
 */
const ARCHIVED = '/api/v2/me/agents/{agentId}/archived-conversations';

/** A list item of an archived conversation, with when it was archived. */
export const ArchivedConversation = ConversationListItem.extend({ archivada: DateTime });
export type ArchivedConversation = z.infer<typeof ArchivedConversation>;
export const ArchivedConversations = z.looseObject({ conversaciones: z.array(ArchivedConversation) });
export type ArchivedConversations = z.infer<typeof ArchivedConversations>;
export const ConversationRestored = z.looseObject({ id: z.string(), restaurada: z.literal(true) });
export type ConversationRestored = z.infer<typeof ConversationRestored>;

export const archivedConversationsSection = [
  defineRoute({
    operationId: 'listArchivedConversations',
    method: 'GET',
    path: ARCHIVED,
    tag: 'conversations',
    summary: 'List the archived conversations, the most recently archived first',
    description:
      'Our extension. The same items as the conversation list, with `archivada`, when it was archived.',
    scope: 'agents:read',
    credential: 'oauth',
    request: { params: PersonAgentParams },
    responses: { 200: ok('Archived conversations.', ArchivedConversations), 404: notFound, 409: noMachine },
    extension: true,
  }),
  defineRoute({
    operationId: 'restoreConversation',
    method: 'POST',
    path: `${ARCHIVED}/{sessionId}/restore`,
    tag: 'conversations',
    summary: 'Bring an archived conversation back to the list',
    description:
      'Our extension. Its messages come back; the public link and the scheduled turns that archiving dropped do not.',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: ConversationParams },
    responses: {
      200: ok('Back in the conversation list.', ConversationRestored),
      404: notFound,
      409: noMachine,
    },
    extension: true,
  }),
] as const;
