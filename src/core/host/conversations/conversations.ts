import type { ConversationMethods, DeskResult } from '../../../shared/bridge';
import { checkConversationIds, checkId } from '../plumbing/argument-checks';
import { fail, noBody } from '../plumbing/call-results';
import { shareCall } from '../plumbing/share-call';
import type { WithApi } from '../plumbing/with-api';
import type { OnConversationEvent } from './conversation-events';
import { createForkMethods } from './conversation-forks';
import { createArchivedMethods } from './archived-conversations';
import { createVersionMethods } from './conversation-versions';
import { createTurnMethods } from './turns';

/** The conversations area: conversations, their public links and live events; turns come from turns.ts. */
export interface ConversationsAreaOptions {
  withApi: WithApi;
  /** Which of our extensions the server offers (plumbing/server-extensions.ts, shared by the areas). */
  serverExtensions(): Promise<DeskResult<string[]>>;
  /** The active connection's API address, for public links. */
  baseUrl(): string | undefined;
  onConversationEvent: OnConversationEvent;
}

export function createConversationsArea(options: ConversationsAreaOptions): ConversationMethods {
  const { withApi, baseUrl } = options;
  return {
    async listConversations(agentId) {
      const invalid = checkId(agentId, 'agent');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => api.listConversations(agentId));
    },

    async createConversation(agentId) {
      const invalid = checkId(agentId, 'agent');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => api.createConversation(agentId));
    },

    async getConversation(agentId, sessionId, getOptions = {}) {
      const invalid = checkConversationIds(agentId, sessionId);
      if (invalid) return { ok: false, error: invalid };
      const limit = getOptions.limit;
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
        return fail('invalid_argument', 'The message limit must be a whole number.');
      }
      return withApi((api) => api.getConversation(agentId, sessionId, limit === undefined ? {} : { limit }));
    },

    async renameConversation(agentId, sessionId, title) {
      const invalid = checkConversationIds(agentId, sessionId);
      if (invalid) return { ok: false, error: invalid };
      if (typeof title !== 'string') return fail('invalid_argument', 'A title is needed.');
      return withApi((api) => noBody(api.renameConversation(agentId, sessionId, title)));
    },

    async archiveConversation(agentId, sessionId) {
      const invalid = checkConversationIds(agentId, sessionId);
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => noBody(api.archiveConversation(agentId, sessionId)));
    },

    getShare: (agentId, sessionId) =>
      shareCall(withApi, baseUrl, agentId, sessionId, (api) => api.getSharing(agentId, sessionId)),
    share: (agentId, sessionId) =>
      shareCall(withApi, baseUrl, agentId, sessionId, (api) => api.share(agentId, sessionId)),
    unshare: (agentId, sessionId) =>
      shareCall(withApi, baseUrl, agentId, sessionId, (api) => api.unshare(agentId, sessionId)),

    ...createTurnMethods(withApi),
    ...createForkMethods(withApi, options.serverExtensions),
    ...createArchivedMethods(withApi),
    ...createVersionMethods(withApi),

    onConversationEvent: options.onConversationEvent,
  };
}
