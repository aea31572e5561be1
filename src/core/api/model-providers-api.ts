import {
  AgentPrograms,
  apiRoutes,
  ModelProvider,
  ModelProviders,
  ProviderRemoved,
  type AgentProgramChoice,
  type NewModelProvider,
  type ProgramEngine,
} from '../../shared/api';
import { json, type ApiRequest, type CallOptions } from './api-request';
import {
  newProviderToWire,
  programChoiceToWire,
  programFromWire,
  providerFromWire,
} from './model-provider-words';

const programs = AgentPrograms.transform((v) => v.programas.map(programFromWire));

/**
 * The person's model providers and this computer's agent programs: our service's extension
 * (docs/extensions.md). The app offers them only where the server lists `listModelProviders` among its
 * extensions (`serverExtensions`).
 */
export function modelProvidersApi(http: ApiRequest) {
  return {
    listModelProviders: (call?: CallOptions) =>
      http.call(
        apiRoutes.listModelProviders,
        {},
        { read: json(ModelProviders.transform((v) => v.proveedores.map(providerFromWire))) },
        call,
      ),
    /** The key goes to the service once; the answer carries it masked. */
    addModelProvider: (provider: NewModelProvider, call?: CallOptions) =>
      http.call(
        apiRoutes.addModelProvider,
        {},
        { read: json(ModelProvider.transform(providerFromWire)), json: newProviderToWire(provider) },
        call,
      ),
    removeModelProvider: (providerId: string, call?: CallOptions) =>
      http.call(apiRoutes.removeModelProvider, { providerId }, { read: json(ProviderRemoved) }, call),
    listAgentPrograms: (call?: CallOptions) =>
      http.call(apiRoutes.listAgentPrograms, {}, { read: json(programs) }, call),
    setAgentProgram: (engine: ProgramEngine, choice: AgentProgramChoice, call?: CallOptions) =>
      http.call(
        apiRoutes.setAgentProgram,
        { motor: engine },
        { read: json(programs), json: programChoiceToWire(choice) },
        call,
      ),
  };
}
