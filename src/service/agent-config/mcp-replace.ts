import type { McpServer } from './mcp-servers';
import type { AgentRecord } from '../identity/agents';
import type { AgentConfigService } from './agent-config-service';
import type { AgentConfigStore } from './config-store';

/** PUT mcp: the new list replaces the whole one, is written to the machine's config, and the agent restarts. */
export async function replaceMcpServers(
  deps: {
    service: AgentConfigService;
    store: AgentConfigStore;
    restart(agentId: string, engine: string): Promise<{ restarted: boolean }>;
  },
  agent: AgentRecord,
  servers: McpServer[],
): Promise<{ restarted: boolean }> {
  const settings = await deps.store.read(agent.id);
  settings.mcp = servers;
  await deps.store.write(agent.id, settings);
  await deps.service.writeMachine(agent, settings);
  const { restarted } = await deps.restart(agent.id, agent.engine);
  return { restarted };
}
