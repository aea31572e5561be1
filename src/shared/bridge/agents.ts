/** The agents area: the person's agents and each agent's configuration. */
import type { AgentConfig, AgentConfigQuery, MeAgentsResponse, PatchAgentBody } from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskResult } from './desk-result';

export interface AgentMethods {
  listAgents(): Promise<DeskResult<MeAgentsResponse>>;
  getAgentConfig(agentId: string, query?: AgentConfigQuery): Promise<DeskResult<AgentConfig>>;
  patchAgentConfig(agentId: string, patch: PatchAgentBody): Promise<DeskResult<AgentConfig>>;
}

export const agentsArea = bridgeArea<AgentMethods>()({
  calls: ['listAgents', 'getAgentConfig', 'patchAgentConfig'],
});
