import { AgentProgramChoice, NewModelProvider, ProgramEngine } from '../../../shared/api';
import type { ModelMethods } from '../../../shared/bridge';
import { checkBody, checkId } from '../plumbing/argument-checks';
import { noBody } from '../plumbing/call-results';
import type { WithApi } from '../plumbing/with-api';

/**
 * The models area: the person's model providers and agent programs (our service's extension). A new
 * provider's key is checked here and handed to the API client; the host keeps no copy and logs none.
 */
export function createModelsArea({ withApi }: { withApi: WithApi }): ModelMethods {
  return {
    listModelProviders: () => withApi((api) => api.listModelProviders()),

    async addModelProvider(input) {
      const body = checkBody(NewModelProvider, input);
      if (!body.ok) return body;
      return withApi((api) => api.addModelProvider(body.value));
    },

    async removeModelProvider(providerId) {
      const invalid = checkId(providerId, 'provider');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => noBody(api.removeModelProvider(providerId)));
    },

    listAgentPrograms: () => withApi((api) => api.listAgentPrograms()),

    async setAgentProgram(engine, choice) {
      const place = checkBody(ProgramEngine, engine);
      if (!place.ok) return place;
      const body = checkBody(AgentProgramChoice, choice);
      if (!body.ok) return body;
      return withApi((api) => api.setAgentProgram(place.value, body.value));
    },
  };
}
