import { create } from 'zustand';
import type { Agent, AgentConfiguration, NewAgent } from '../../shared/api';
import { desk } from '../desk';
import { errorWords } from '../error-words';

interface AgentsStore {
  agents: Agent[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string;
  selectedAgentId: string | null;
  /** The person chose the selected agent (a click, a new agent), not the app by itself (the first one at start). */
  chosenByPerson: boolean;
  /** What the chat needs of each agent's configuration; `about` is our service's words for it (docs/extensions.md). */
  configs: Record<string, Pick<AgentConfiguration, 'starters' | 'models' | 'model' | 'engine' | 'about'>>;
  /**
   * Agents that cannot chat: their engine has no machine (the spec's hasMachine false, or a 409
   * agente_no_acp): agent id -> engine. The one place the app keeps it; the studio reads it from here.
   */
  noMachine: Record<string, string>;
  load(): Promise<void>;
  /** Selects an agent; `byApp` when the app opens it by itself (the place remembered, a link), not the person. */
  select(agentId: string, byApp?: boolean): void;
  /** Reads the agent's configuration, and from the server's `hasMachine` whether it can chat. */
  loadConfig(agentId: string): Promise<void>;
  /** The server's answer: the engine without a machine, or null once the agent has one. */
  setNoMachine(agentId: string, engine: string | null): void;
  /** Makes an agent (our service's extension) and selects it; '' or the problem in words. */
  createAgent(input: NewAgent): Promise<string>;
  /** Renames through the spec's PATCH `name`; '' or the problem in words. */
  renameAgent(agentId: string, name: string): Promise<string>;
  /** Deletes an agent (our service's extension); '' or the problem in words. */
  deleteAgent(agentId: string): Promise<string>;
  reset(): void;
}

/** The store's data as at start, and after a sign-out. */
const initial = {
  agents: [],
  status: 'idle',
  error: '',
  selectedAgentId: null,
  chosenByPerson: false,
  configs: {},
  noMachine: {},
} satisfies Partial<AgentsStore>;

/** The agents asked for at start beside the session (`listAgentsEarly`), for the first `load` to take. */
let early: ReturnType<ReturnType<typeof desk>['listAgents']> | null = null;

/**
 * Asks for the agents at start, beside the session rather than after it, so the first screen waits on one
 * answer of the host instead of two in a row. `dropEarlyAgents` drops it when the session says
 * nobody is signed in (the answer is then a refusal, which no later `load` may take).
 */
export function listAgentsEarly(): void {
  early = desk().listAgents();
}
export function dropEarlyAgents(): void {
  early = null;
}

export const useAgentsStore = create<AgentsStore>((set, get) => ({
  ...initial,
  async load() {
    set({ status: 'loading', error: '' });
    const asked = early ?? desk().listAgents();
    early = null;
    const result = await asked;
    if (!result.ok) return set({ status: 'error', error: errorWords(result.error) });
    const agents = result.value.agents;
    const selected = get().selectedAgentId;
    set({
      agents,
      status: 'ready',
      selectedAgentId: selected && agents.some((a) => a.id === selected) ? selected : (agents[0]?.id ?? null),
    });
  },
  select(agentId, byApp = false) {
    set({ selectedAgentId: agentId, chosenByPerson: !byApp });
  },
  async loadConfig(agentId) {
    const result = await desk().getAgentConfig(agentId);
    if (result.ok) {
      const { starters, models, model, engine, about, hasMachine } = result.value;
      set({ configs: { ...get().configs, [agentId]: { starters, models, model, engine, about } } });
      if (hasMachine !== undefined) get().setNoMachine(agentId, hasMachine ? null : (engine ?? ''));
    } else if (result.error.code === 'agente_no_acp') {
      get().setNoMachine(agentId, result.error.engine ?? '');
    }
  },
  setNoMachine(agentId, engine) {
    const { [agentId]: known, ...others } = get().noMachine;
    if (known === (engine ?? undefined)) return;
    set({ noMachine: engine === null ? others : { ...others, [agentId]: engine } });
  },
  async createAgent(input) {
    const made = await desk().createAgent(input);
    if (!made.ok) return errorWords(made.error);
    set({ agents: [...get().agents, made.value], selectedAgentId: made.value.id, chosenByPerson: true });
    return '';
  },
  async renameAgent(agentId, name) {
    const renamed = await desk().patchAgentConfig(agentId, { name });
    if (!renamed.ok && renamed.error.code !== 'nada_que_cambiar') return errorWords(renamed.error);
    set({ agents: get().agents.map((a) => (a.id === agentId ? { ...a, name } : a)) });
    return '';
  },
  async deleteAgent(agentId) {
    const deleted = await desk().deleteAgent(agentId);
    if (!deleted.ok) return errorWords(deleted.error);
    const agents = get().agents.filter((a) => a.id !== agentId);
    const selected = get().selectedAgentId;
    set({ agents, selectedAgentId: selected === agentId ? (agents[0]?.id ?? null) : selected });
    return '';
  },
  reset() {
    set(initial);
  },
}));
