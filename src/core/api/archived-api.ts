import { apiRoutes, ArchivedConversations, ConversationRestored } from '../../shared/api';
import { json, type ApiRequest, type CallOptions } from './api-request';
import { archivedFromWire } from './conversation-words';

/** Archived conversations, our service's extension (docs/extensions.md): listed and brought back. */
export function archivedApi(http: ApiRequest) {
  return {
    listArchivedConversations: (agentId: string, call?: CallOptions) =>
      http.call(
        apiRoutes.listArchivedConversations,
        { agentId },
        { read: json(ArchivedConversations.transform((v) => v.conversaciones.map(archivedFromWire))) },
        call,
      ),
    restoreConversation: (agentId: string, sessionId: string, call?: CallOptions) =>
      http.call(
        apiRoutes.restoreConversation,
        { agentId, sessionId },
        { read: json(ConversationRestored), resendable: true },
        call,
      ),
  };
}
