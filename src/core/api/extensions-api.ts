import { apiRoutes, ConversationForked, type ForkPoint } from '../../shared/api';
import { json, raw, type ApiRequest, type CallOptions } from './api-request';
import { forkedFromWire } from './conversation-words';
import { readExtensionOperations } from './extension-operations-reader';
import type { ApiResult } from './api-request';
import { ok } from '../common/result';

/**
 * Our service's extensions (docs/extensions.md), and how to tell whether a server has them: the spec
 * promises a description at `/openapi.yaml`, and ours marks each extension operation with
 * `x-agentdesk-extension`. A server that publishes none, or an unreadable one, offers none.
 */
export function extensionsApi(http: ApiRequest) {
  return {
    /** The operationIds of our extensions the server lists (empty when it lists none). */
    async serverExtensions(call?: CallOptions): Promise<ApiResult<string[]>> {
      const answer = await http.call(apiRoutes.openapi, {}, { read: raw }, call);
      // No description published: a spec server need not have one at this address; it offers nothing of ours.
      if (!answer.ok) return answer.error.status >= 400 && answer.error.status < 500 ? ok([]) : answer;
      // Parsed on a thread of its own: the description is ~270 KB of YAML (extension-operations-reader.ts).
      return ok(await readExtensionOperations(await answer.value.text()));
    },
    forkConversation: (agentId: string, sessionId: string, at: ForkPoint, call?: CallOptions) =>
      http.call(
        apiRoutes.forkConversation,
        { agentId, sessionId },
        {
          read: json(ConversationForked.transform(forkedFromWire)),
          json: 'firstMessages' in at ? { hasta: at.firstMessages } : at,
        },
        call,
      ),
  };
}
