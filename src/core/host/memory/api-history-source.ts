import { LIMITS } from '../../../shared/api';
import type { ApiClient, ApiResult } from '../../api/api-client';
import type { HistorySource, SourceResult } from '../../memory/history-indexer';
import type { WithApi } from '../plumbing/with-api';

/** The longest tail the API gives in one answer: the whole history of all but giant conversations. */
export const WHOLE_HISTORY = LIMITS.conversationTailMax;

/** The indexer's view of the API, through the active connection. */
export function apiHistorySource(withApi: WithApi): HistorySource {
  const call = async <T, U>(run: (api: ApiClient) => Promise<ApiResult<T>>, map: (value: T) => U) => {
    const result = await withApi(run);
    return (result.ok ? { ok: true, value: map(result.value) } : result) as SourceResult<U>;
  };
  return {
    listAgents: () =>
      call(
        (api) => api.listAgents(),
        (v) => v.agents.map((a) => ({ id: a.id })),
      ),
    listConversations: (agentId) =>
      call(
        (api) => api.listConversations(agentId),
        (v) => v,
      ),
    getHistory: (agentId, conversationId) =>
      call(
        (api) => api.getConversation(agentId, conversationId, { limit: WHOLE_HISTORY }),
        (v) => v.messages.map((m) => ({ role: m.role, content: m.content, at: Date.parse(m.at) })),
      ),
  };
}
