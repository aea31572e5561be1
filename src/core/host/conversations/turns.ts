import { PermissionBody, SendMessageInput } from '../../../shared/api';
import type { ConversationMethods } from '../../../shared/bridge';
import { checkBody, checkConversationIds, checkId } from '../plumbing/argument-checks';
import { noBody } from '../plumbing/call-results';
import type { WithApi } from '../plumbing/with-api';

type TurnMethods = Pick<ConversationMethods, 'sendMessage' | 'cancelTurn' | 'answerPermission' | 'setModel'>;

/** A conversation's turns: send a message, stop the reply, answer a permission question, pick the model. */
export function createTurnMethods(withApi: WithApi): TurnMethods {
  return {
    async sendMessage(agentId, sessionId, input) {
      const invalid = checkConversationIds(agentId, sessionId);
      if (invalid) return { ok: false, error: invalid };
      // The page is not trusted: the message is checked against the one shared input before it leaves.
      const message = checkBody(SendMessageInput, input);
      if (!message.ok) return message;
      return withApi((api) => api.sendMessage(agentId, sessionId, message.value));
    },

    async cancelTurn(agentId, sessionId) {
      const invalid = checkConversationIds(agentId, sessionId);
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => api.cancelTurn(agentId, sessionId));
    },

    async answerPermission(agentId, sessionId, answer) {
      const invalid = checkConversationIds(agentId, sessionId);
      if (invalid) return { ok: false, error: invalid };
      const body = checkBody(PermissionBody, answer);
      if (!body.ok) return body;
      return withApi((api) => api.answerPermission(agentId, sessionId, body.value));
    },

    async setModel(agentId, sessionId, model) {
      const invalid = checkConversationIds(agentId, sessionId) ?? checkId(model, 'model');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => noBody(api.setModel(agentId, sessionId, model)));
    },
  };
}
