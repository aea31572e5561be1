import { create } from 'zustand';
import type { AgentConfigPatch, AgentConfiguration } from '../../shared/api';
import type { DeskError } from '../../shared/bridge';
import { desk } from '../desk';
import { errorWords } from '../error-words';
import { useAgentsStore } from './agents-store';
import { useConversationsStore } from './conversations-store';

export type AgentConfigSection =
  | 'identity'
  | 'engine'
  | 'channels'
  | 'tools'
  | 'permissions'
  | 'mcp'
  | 'skills'
  | 'files'
  | 'restart'
  | 'bundle'
  | 'numbers';

/** What the person is told after a save: the server's note and the paths it applied, or why it failed. */
export interface SaveOutcome {
  section: AgentConfigSection;
  /** `not-taken`: a 502, saved but the machine did not take it (Restart is offered). */
  kind: 'saved' | 'not-taken' | 'failed';
  message: string;
  note?: string;
  applied?: string[];
  /** A 400 about the model goes next to the model field. */
  field?: string;
}

interface AgentConfigStore {
  /** The agent whose studio is open, or null when the chat shows. */
  agentId: string | null;
  section: AgentConfigSection;
  config: AgentConfiguration | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string;
  dirty: Partial<Record<AgentConfigSection, boolean>>;
  /** A navigation waiting for the person to confirm discarding edits. */
  pendingLeave: (() => void) | null;
  outcome: SaveOutcome | null;
  tryOpen: boolean;
  restarting: boolean;
  open(agentId: string, section?: AgentConfigSection): void;
  close(): void;
  goTo(section: AgentConfigSection): void;
  setDirty(section: AgentConfigSection, dirty: boolean): void;
  /** Runs `action` now, or after the person agrees to lose unsaved edits. */
  requestLeave(action: () => void): void;
  confirmLeave(): void;
  cancelLeave(): void;
  load(): Promise<void>;
  /** PATCH with only what the section changed; true when the server saved it (200 or 502). */
  save(section: AgentConfigSection, patch: AgentConfigPatch): Promise<boolean>;
  restart(): Promise<void>;
  /** Records a failure of another studio call, noting a 409 agente_no_acp. */
  noteError(section: AgentConfigSection, error: DeskError): void;
  setOutcome(outcome: SaveOutcome | null): void;
  toggleTry(open?: boolean): void;
}

const initial = {
  agentId: null,
  section: 'identity' as AgentConfigSection,
  config: null,
  status: 'idle' as const,
  error: '',
  dirty: {},
  pendingLeave: null,
  outcome: null,
  tryOpen: false,
  restarting: false,
};

export const useAgentConfigStore = create<AgentConfigStore>((set, get) => ({
  ...initial,
  open(agentId, section = 'identity') {
    const same = get().agentId === agentId;
    set({ ...(same ? {} : { ...initial, config: null }), agentId, section, outcome: null });
    if (!same) void get().load();
  },
  close() {
    set({ ...initial });
  },
  goTo(section) {
    set({ section, outcome: null });
  },
  setDirty(section, dirty) {
    if (!!get().dirty[section] === dirty) return;
    set({ dirty: { ...get().dirty, [section]: dirty } });
  },
  requestLeave(action) {
    if (Object.values(get().dirty).some(Boolean)) set({ pendingLeave: action });
    else action();
  },
  confirmLeave() {
    const action = get().pendingLeave;
    set({ pendingLeave: null, dirty: {} });
    action?.();
  },
  cancelLeave() {
    set({ pendingLeave: null });
  },
  async load() {
    const agentId = get().agentId;
    if (!agentId) return;
    set({ status: 'loading', error: '' });
    const result = await desk().getAgentConfig(agentId);
    if (get().agentId !== agentId) return;
    if (!result.ok) return set({ status: 'error', error: errorWords(result.error) });
    set({ config: result.value, status: 'ready' });
    learnMachine(agentId, result.value);
  },
  async save(section, patch) {
    const agentId = get().agentId;
    if (!agentId) return false;
    // The last save's "Saved." is not this one's: it goes until the server answers this one.
    set({ outcome: null });
    const result = await desk().patchAgentConfig(agentId, patch);
    if (get().agentId !== agentId) return false;
    if (result.ok) {
      const { note, applied, ...saved } = result.value;
      set({
        config: { ...get().config, ...saved },
        outcome: {
          section,
          kind: 'saved',
          message: 'Saved.',
          ...(note ? { note } : {}),
          ...(applied ? { applied } : {}),
        },
      });
      learnMachine(agentId, saved);
      get().setDirty(section, false);
      // The sidebar and the chat show the name, engine and starters too.
      if (patch.name !== undefined) void useAgentsStore.getState().load();
      if (patch.engine || patch.model || patch.starters) void useAgentsStore.getState().loadConfig(agentId);
      return true;
    }
    if (result.error.status === 502) {
      // Saved, but the machine did not take it: read back what the server holds.
      set({
        outcome: {
          section,
          kind: 'not-taken',
          message: 'Saved, but the agent did not take the change. Restart the agent to apply it.',
          note: result.error.message,
        },
      });
      get().setDirty(section, false);
      void reread(agentId);
      return true;
    }
    get().noteError(section, result.error);
    return false;
  },
  async restart() {
    const agentId = get().agentId;
    if (!agentId) return;
    set({ restarting: true });
    const result = await desk().restartAgent(agentId);
    if (get().agentId !== agentId) return;
    set({ restarting: false });
    if (result.ok) {
      set({
        outcome: {
          section: get().section,
          kind: 'saved',
          message: result.value.restarted
            ? 'Restarted. The agent is running again, with its workspace as it was.'
            : 'The agent did not restart.',
        },
      });
      void reread(agentId);
    } else get().noteError(get().section, result.error);
  },
  noteError(section, error) {
    const agentId = get().agentId;
    if (error.code === 'agente_no_acp' && agentId) {
      useAgentsStore.getState().setNoMachine(agentId, error.engine ?? get().config?.engine ?? '');
      // The page's view of the engine is stale: read what the server holds now.
      void get().load();
    }
    set({
      outcome: {
        section,
        kind: 'failed',
        message: noMachineWords(error) ?? errorWords(error),
        ...(error.code === 'modelo_invalido' || (error.status === 400 && /model/i.test(error.message))
          ? { field: 'model' }
          : {}),
      },
    });
  },
  setOutcome(outcome) {
    set({ outcome });
  },
  toggleTry(open) {
    set({ tryOpen: open ?? !get().tryOpen });
  },
}));

async function reread(agentId: string): Promise<void> {
  const result = await desk().getAgentConfig(agentId);
  if (!result.ok) return;
  learnMachine(agentId, result.value);
  if (useAgentConfigStore.getState().agentId === agentId)
    useAgentConfigStore.setState({ config: result.value });
}

/**
 * Whether the agent can chat, from the server's `hasMachine`, kept in the agents store only. An agent that
 * could not chat and now can (a new engine, a restart) has its conversations read again, so the person
 * chats at once.
 */
function learnMachine(agentId: string, answer: Pick<AgentConfiguration, 'hasMachine' | 'engine'>): void {
  if (answer.hasMachine === undefined) return;
  const agents = useAgentsStore.getState();
  const couldNot = agents.noMachine[agentId] !== undefined;
  agents.setNoMachine(agentId, answer.hasMachine ? null : (answer.engine ?? ''));
  if (couldNot && answer.hasMachine) void useConversationsStore.getState().load(agentId);
}

/** The 409 agente_no_acp in plain words: which engine, and what it cannot do. */
export function noMachineWords(error: DeskError): string | undefined {
  if (error.code !== 'agente_no_acp') return undefined;
  return 'The server says this agent has no workspace of its own: its engine cannot hold workspace files, MCP servers or built-in tools, or restart.';
}
