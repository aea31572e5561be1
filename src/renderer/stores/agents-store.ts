import { create } from 'zustand';
import type { Agente, AgentConfig } from '../../shared/api';
import { desk } from '../desk';
import { errorWords } from '../error-words';

interface AgentsStore {
  agents: Agente[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string;
  selectedAgentId: string | null;
  /** What we know of each agent's configuration (starters, models), when readable. */
  configs: Record<string, Pick<AgentConfig, 'starters' | 'models' | 'model' | 'engine'>>;
  /** Agents whose engine has no conversations (409 agente_no_acp): agent id -> engine. */
  noConversations: Record<string, string>;
  load(): Promise<void>;
  select(agentId: string): void;
  loadConfig(agentId: string): Promise<void>;
  markNoConversations(agentId: string, motor: string): void;
  reset(): void;
}

export const useAgentsStore = create<AgentsStore>((set, get) => ({
  agents: [],
  status: 'idle',
  error: '',
  selectedAgentId: null,
  configs: {},
  noConversations: {},
  async load() {
    set({ status: 'loading', error: '' });
    const result = await desk().listAgents();
    if (!result.ok) return set({ status: 'error', error: errorWords(result.error) });
    const agents = result.value.agentes;
    const selected = get().selectedAgentId;
    set({
      agents,
      status: 'ready',
      selectedAgentId: selected && agents.some((a) => a.id === selected) ? selected : (agents[0]?.id ?? null),
    });
  },
  select(agentId) {
    set({ selectedAgentId: agentId });
  },
  async loadConfig(agentId) {
    const result = await desk().getAgentConfig(agentId);
    if (result.ok) {
      const { starters, models, model, engine } = result.value;
      set({ configs: { ...get().configs, [agentId]: { starters, models, model, engine } } });
    } else if (result.error.code === 'agente_no_acp') {
      get().markNoConversations(agentId, String((result.error as { motor?: string }).motor ?? ''));
    }
  },
  markNoConversations(agentId, motor) {
    set({ noConversations: { ...get().noConversations, [agentId]: motor } });
  },
  reset() {
    set({ agents: [], status: 'idle', error: '', selectedAgentId: null, configs: {}, noConversations: {} });
  },
}));
