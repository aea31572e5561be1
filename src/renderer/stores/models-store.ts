import { create } from 'zustand';
import type {
  AccountAgentProgram,
  AccountModelProvider,
  AgentProgramChoice,
  NewModelProvider,
  ProgramEngine,
} from '../../shared/api';
import { desk } from '../desk';
import { errorWords } from '../error-words';

type Status = 'idle' | 'loading' | 'ready' | 'error';

/**
 * The person's model providers and this computer's agent programs (our service's extension): Settings,
 * the welcome's "Use your own model" and the studio read them here. No key is ever kept: the page sees
 * only the masked one the service answers with.
 */
interface ModelsStore {
  providers: AccountModelProvider[];
  providersStatus: Status;
  providersError: string;
  programs: AccountAgentProgram[];
  programsStatus: Status;
  programsError: string;
  loadProviders(): Promise<void>;
  /** The added provider, or the service's words for why not ("Anthropic refused this key (401)"). */
  addProvider(input: NewModelProvider): Promise<{ provider: AccountModelProvider } | { problem: string }>;
  /** '' or the problem in words. */
  removeProvider(providerId: string): Promise<string>;
  loadPrograms(): Promise<void>;
  /** '' or the problem in words (a person who is not the service's owner is told so). */
  setProgram(engine: ProgramEngine, choice: AgentProgramChoice): Promise<string>;
  reset(): void;
}

const initial = {
  providers: [],
  providersStatus: 'idle',
  providersError: '',
  programs: [],
  programsStatus: 'idle',
  programsError: '',
} satisfies Partial<ModelsStore>;

export const OWNER_ONLY_WORDS =
  'Only the owner of this service can choose the programs it runs, since they run on its computer.';

export const useModelsStore = create<ModelsStore>((set, get) => ({
  ...initial,
  async loadProviders() {
    if (get().providersStatus !== 'ready') set({ providersStatus: 'loading' });
    const result = await desk().listModelProviders();
    if (!result.ok) return set({ providersStatus: 'error', providersError: errorWords(result.error) });
    set({ providers: result.value, providersStatus: 'ready', providersError: '' });
  },
  async addProvider(input) {
    const result = await desk().addModelProvider(input);
    if (!result.ok) return { problem: errorWords(result.error) };
    const others = get().providers.filter((p) => p.id !== result.value.id);
    set({ providers: [...others, result.value], providersStatus: 'ready' });
    return { provider: result.value };
  },
  async removeProvider(providerId) {
    const result = await desk().removeModelProvider(providerId);
    if (!result.ok && result.error.status !== 404) return errorWords(result.error);
    set({ providers: get().providers.filter((p) => p.id !== providerId) });
    return '';
  },
  async loadPrograms() {
    if (get().programsStatus !== 'ready') set({ programsStatus: 'loading' });
    const result = await desk().listAgentPrograms();
    if (!result.ok) return set({ programsStatus: 'error', programsError: errorWords(result.error) });
    set({ programs: result.value, programsStatus: 'ready', programsError: '' });
  },
  async setProgram(engine, choice) {
    const result = await desk().setAgentProgram(engine, choice);
    if (!result.ok) return result.error.status === 403 ? OWNER_ONLY_WORDS : errorWords(result.error);
    set({ programs: result.value, programsStatus: 'ready' });
    return '';
  },
  reset() {
    set(initial);
  },
}));
