import { apiRoutes, DeletedAccount, MeAgentsResponse } from '../../shared/api';
import { json, type ApiRequest, type CallOptions } from './api-request';
import { agentListFromWire } from './agent-words';

/** Account and agents (spec section): who is signed in, their agents, closing the account. */
export function accountApi(http: ApiRequest) {
  return {
    listAgents: (call?: CallOptions) =>
      http.call(
        apiRoutes.getMyAgents,
        {},
        { read: json(MeAgentsResponse.transform(agentListFromWire)) },
        call,
      ),
    deleteAccount: (call?: CallOptions) =>
      http.call(apiRoutes.deleteMe, {}, { read: json(DeletedAccount) }, call),
  };
}
