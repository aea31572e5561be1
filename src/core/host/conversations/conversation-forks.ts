import { ForkPoint } from '../../../shared/api';
import type { ConversationMethods, DeskResult } from '../../../shared/bridge';
import { checkBody, checkConversationIds } from '../plumbing/argument-checks';
import type { WithApi } from '../plumbing/with-api';

type ForkMethods = Pick<ConversationMethods, 'serverExtensions' | 'forkConversation'>;

/** Forking (our service's extension) and how the app learns a server offers it. */
export function createForkMethods(
  withApi: WithApi,
  serverExtensions: () => Promise<DeskResult<string[]>>,
): ForkMethods {
  return {
    serverExtensions,

    async forkConversation(agentId, sessionId, at) {
      const invalid = checkConversationIds(agentId, sessionId);
      if (invalid) return { ok: false, error: invalid };
      const body = checkBody(ForkPoint, at);
      if (!body.ok) return body;
      return withApi((api) => api.forkConversation(agentId, sessionId, body.value));
    },
  };
}
