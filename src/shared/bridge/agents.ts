/** The agents area: the person's agents and each agent's configuration. */
import type {
  Agente,
  AgentConfig,
  AgentConfigQuery,
  CreateAgentBody,
  MeAgentsResponse,
  PatchAgentBody,
  StartingPoint,
} from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskResult } from './desk-result';

export interface AgentMethods {
  listAgents(): Promise<DeskResult<MeAgentsResponse>>;
  getAgentConfig(agentId: string, query?: AgentConfigQuery): Promise<DeskResult<AgentConfig>>;
  patchAgentConfig(agentId: string, patch: PatchAgentBody): Promise<DeskResult<AgentConfig>>;
  /** Our service's extension (offered where `serverExtensions` lists `createAgent`): starting points. */
  agentStartingPoints(): Promise<DeskResult<StartingPoint[]>>;
  /** Our service's extension: a new agent, optionally from a starting point. */
  createAgent(input: CreateAgentBody): Promise<DeskResult<Agente>>;
  /** Our service's extension: deletes an agent with its conversations, workspace and settings. */
  deleteAgent(agentId: string): Promise<DeskResult<void>>;
}

export const agentsArea = bridgeArea<AgentMethods>()({
  calls: [
    'listAgents',
    'getAgentConfig',
    'patchAgentConfig',
    'agentStartingPoints',
    'createAgent',
    'deleteAgent',
  ],
});
