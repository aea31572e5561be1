import type { ConversationMethods } from '../../../shared/bridge';
import { checkConversationIds } from '../plumbing/argument-checks';
import { fail } from '../plumbing/call-results';
import type { WithApi } from '../plumbing/with-api';

type VersionMethods = Pick<ConversationMethods, 'rewindConversation' | 'listConversationVersions'>;

/** Retry and Edit in place (our service's rewind extension): the app offers it where `serverExtensions` lists it. */
export function createVersionMethods(withApi: WithApi): VersionMethods {
  return {
    async rewindConversation(agentId, sessionId, keep) {
      const invalid = checkConversationIds(agentId, sessionId);
      if (invalid) return { ok: false, error: invalid };
      if (!Number.isInteger(keep) || keep < 0)
        return fail('invalid_argument', 'The message to go back to is unknown.');
      return withApi((api) => api.rewindConversation(agentId, sessionId, keep));
    },
    async listConversationVersions(agentId, sessionId) {
      const invalid = checkConversationIds(agentId, sessionId);
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => api.listConversationVersions(agentId, sessionId));
    },
  };
}
