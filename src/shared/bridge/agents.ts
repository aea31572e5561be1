/** The agents area: the person's agents, listed, made and deleted (each one's configuration: agent-config.ts). */
import type { Agent, AgentList, AgentStartingPoint, NewAgent } from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskResult } from './desk-result';

export interface AgentMethods {
  listAgents(): Promise<DeskResult<AgentList>>;
  /** Our service's extension (offered where `serverExtensions` lists `createAgent`): starting points. */
  agentStartingPoints(): Promise<DeskResult<AgentStartingPoint[]>>;
  /** Our service's extension: a new agent, optionally from a starting point. */
  createAgent(input: NewAgent): Promise<DeskResult<Agent>>;
  /** Our service's extension: deletes an agent with its conversations, workspace and settings. */
  deleteAgent(agentId: string): Promise<DeskResult<void>>;
}

export const agentsArea = bridgeArea<AgentMethods>()({
  calls: ['listAgents', 'agentStartingPoints', 'createAgent', 'deleteAgent'],
});
