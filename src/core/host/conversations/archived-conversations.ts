import type { ConversationMethods } from '../../../shared/bridge';
import { checkConversationIds, checkId } from '../plumbing/argument-checks';
import { noBody } from '../plumbing/call-results';
import type { WithApi } from '../plumbing/with-api';

type ArchivedMethods = Pick<ConversationMethods, 'listArchivedConversations' | 'restoreConversation'>;

/** Archived conversations (our service's extension): the app offers them where `serverExtensions` lists them. */
export function createArchivedMethods(withApi: WithApi): ArchivedMethods {
  return {
    async listArchivedConversations(agentId) {
      const invalid = checkId(agentId, 'agent');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => api.listArchivedConversations(agentId));
    },
    async restoreConversation(agentId, sessionId) {
      const invalid = checkConversationIds(agentId, sessionId);
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => noBody(api.restoreConversation(agentId, sessionId)));
    },
  };
}
