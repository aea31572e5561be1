import { ForkPoint } from '../../../shared/api';
import type { ConversationMethods } from '../../../shared/bridge';
import { checkBody, checkConversationIds } from '../plumbing/argument-checks';
import type { WithApi } from '../plumbing/with-api';

type ForkMethods = Pick<ConversationMethods, 'serverExtensions' | 'forkConversation'>;

/**
 * Forking (our service's extension) and how the app learns a server offers it. The server's list of
 * extensions is read once per server address: it changes only when the server is updated, and a
 * reload of the app reads it again.
 */
export function createForkMethods(withApi: WithApi): ForkMethods {
  const known = new Map<string, string[]>();
  return {
    serverExtensions: () =>
      withApi(async (api) => {
        const cached = known.get(api.baseUrl);
        if (cached) return { ok: true, value: cached };
        const read = await api.serverExtensions();
        if (read.ok) known.set(api.baseUrl, read.value);
        return read;
      }),

    async forkConversation(agentId, sessionId, at) {
      const invalid = checkConversationIds(agentId, sessionId);
      if (invalid) return { ok: false, error: invalid };
      const body = checkBody(ForkPoint, at);
      if (!body.ok) return body;
      return withApi((api) => api.forkConversation(agentId, sessionId, body.value));
    },
  };
}
