import { apiRoutes, ConversationRewound, ConversationVersions } from '../../shared/api';
import { json, type ApiRequest, type CallOptions } from './api-request';
import { versionFromWire } from './conversation-words';

/** Our service's rewind extension (docs/extensions.md): Retry and Edit in place, and the earlier versions. */
export function versionsApi(http: ApiRequest) {
  return {
    rewindConversation: (agentId: string, sessionId: string, keep: number, call?: CallOptions) =>
      http.call(
        apiRoutes.rewindConversation,
        { agentId, sessionId },
        {
          read: json(ConversationRewound.transform((v) => versionFromWire(v.version))),
          json: { hasta: keep },
        },
        call,
      ),
    listConversationVersions: (agentId: string, sessionId: string, call?: CallOptions) =>
      http.call(
        apiRoutes.listConversationVersions,
        { agentId, sessionId },
        { read: json(ConversationVersions.transform((v) => v.versiones.map(versionFromWire))) },
        call,
      ),
  };
}
