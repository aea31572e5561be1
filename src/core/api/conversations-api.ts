import {
  apiRoutes,
  Compartida,
  ConversationCreated,
  ConversationResponse,
  ConversationsResponse,
} from '../../shared/api';
import { json, none, type ApiRequest, type CallOptions } from './api-request';
import { conversationFromWire, conversationPageFromWire, sharingFromWire } from './conversation-words';

/** Conversations (spec section): list, create, read, rename, archive, and the public link. */
export function conversationsApi(http: ApiRequest) {
  const r = apiRoutes;
  const sharing = Compartida.transform(sharingFromWire);
  return {
    listConversations: (agentId: string, call?: CallOptions) =>
      http.call(
        r.listConversations,
        { agentId },
        { read: json(ConversationsResponse.transform((v) => v.conversaciones.map(conversationFromWire))) },
        call,
      ),
    createConversation: (agentId: string, call?: CallOptions) =>
      http.call(r.createConversation, { agentId }, { read: json(ConversationCreated) }, call),
    getConversation: (
      agentId: string,
      sessionId: string,
      query: { limit?: number } = {},
      call?: CallOptions,
    ) =>
      http.call(
        r.getConversation,
        { agentId, sessionId },
        {
          read: json(ConversationResponse.transform(conversationPageFromWire)),
          query: { limit: query.limit },
        },
        call,
      ),
    renameConversation: (agentId: string, sessionId: string, title: string, call?: CallOptions) =>
      http.call(r.renameConversation, { agentId, sessionId }, { read: none, json: { title } }, call),
    archiveConversation: (agentId: string, sessionId: string, call?: CallOptions) =>
      http.call(r.archiveConversation, { agentId, sessionId }, { read: none }, call),

    getSharing: (agentId: string, sessionId: string, call?: CallOptions) =>
      http.call(r.getShare, { agentId, sessionId }, { read: json(sharing) }, call),
    share: (agentId: string, sessionId: string, call?: CallOptions) =>
      http.call(r.share, { agentId, sessionId }, { read: json(sharing), resendable: true }, call),
    unshare: (agentId: string, sessionId: string, call?: CallOptions) =>
      http.call(r.unshare, { agentId, sessionId }, { read: json(sharing) }, call),
  };
}
