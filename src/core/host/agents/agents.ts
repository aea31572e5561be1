import { NewAgent } from '../../../shared/api';
import type { AgentMethods, SessionState } from '../../../shared/bridge';
import { checkBody, checkId } from '../plumbing/argument-checks';
import type { WithApi } from '../plumbing/with-api';

/** The agents area: the person's agents, listed, made and deleted (their configuration: agent-config/). */
export interface AgentsAreaOptions {
  withApi: WithApi;
  /** The listing names who is signed in; the session keeps it. */
  onUser(user: NonNullable<SessionState['user']>): void;
}

export function createAgentsArea({ withApi, onUser }: AgentsAreaOptions): AgentMethods {
  return {
    async listAgents() {
      const result = await withApi((api) => api.listAgents());
      if (result.ok) onUser(result.value.user);
      return result;
    },

    async agentStartingPoints() {
      return withApi((api) => api.agentStartingPoints());
    },

    async createAgent(input) {
      const body = checkBody(NewAgent, input);
      if (!body.ok) return body;
      return withApi((api) => api.createAgent(body.value));
    },

    async deleteAgent(agentId) {
      const invalid = checkId(agentId, 'agent');
      if (invalid) return { ok: false, error: invalid };
      const result = await withApi((api) => api.deleteAgent(agentId));
      return result.ok ? { ok: true, value: undefined } : result;
    },
  };
}
