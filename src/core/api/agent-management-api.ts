import { AgentDeleted, Agente, apiRoutes, StartingPoints, type NewAgent } from '../../shared/api';
import { agentFromWire, newAgentToWire, startingPointFromWire } from './agent-words';
import { json, type ApiRequest, type CallOptions } from './api-request';

/**
 * Making and deleting agents: our service's extension (docs/extensions.md). The app offers it only where
 * the server lists `createAgent` among its extensions (`serverExtensions`).
 */
export function agentManagementApi(http: ApiRequest) {
  return {
    agentStartingPoints: (call?: CallOptions) =>
      http.call(
        apiRoutes.agentStartingPoints,
        {},
        { read: json(StartingPoints.transform((v) => v.inicios.map(startingPointFromWire))) },
        call,
      ),
    createAgent: (agent: NewAgent, call?: CallOptions) =>
      http.call(
        apiRoutes.createAgent,
        {},
        { read: json(Agente.transform(agentFromWire)), json: newAgentToWire(agent) },
        call,
      ),
    deleteAgent: (agentId: string, call?: CallOptions) =>
      http.call(apiRoutes.deleteAgent, { agentId }, { read: json(AgentDeleted) }, call),
  };
}
