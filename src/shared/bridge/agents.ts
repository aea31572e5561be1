/** The agents area: the person's agents and each agent's configuration. */
import type {
  Agent,
  AgentConfigPatch,
  AgentConfigQuery,
  AgentConfiguration,
  AgentList,
  AgentStartingPoint,
  NewAgent,
  SavedAgentConfiguration,
} from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskResult } from './desk-result';

export interface AgentMethods {
  listAgents(): Promise<DeskResult<AgentList>>;
  getAgentConfig(agentId: string, query?: AgentConfigQuery): Promise<DeskResult<AgentConfiguration>>;
  patchAgentConfig(agentId: string, patch: AgentConfigPatch): Promise<DeskResult<SavedAgentConfiguration>>;
  /** Our service's extension (offered where `serverExtensions` lists `createAgent`): starting points. */
  agentStartingPoints(): Promise<DeskResult<AgentStartingPoint[]>>;
  /** Our service's extension: a new agent, optionally from a starting point. */
  createAgent(input: NewAgent): Promise<DeskResult<Agent>>;
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
