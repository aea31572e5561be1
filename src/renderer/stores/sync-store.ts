import { create } from 'zustand';
import type {
  DeskResult,
  SyncConflictChoice,
  SyncFolderStatus,
  SyncOpenTarget,
  SyncVersion,
  Unsubscribe,
} from '../../shared/bridge';
import { desk } from '../desk';
import { errorWords } from '../error-words';

export interface AgentSync {
  /** The synced folder; null when the agent has none, undefined until loaded. */
  folder: SyncFolderStatus | null | undefined;
  /** ~/AgentDesk/<agent name>, from the host. */
  defaultRoot: string;
  canPickFolder: boolean;
  loading: boolean;
  /** The action running now, so its button can wait. */
  busy: string | null;
  /** The last failure, in plain words. */
  error: string;
  /** The folder's kept versions, newest first, once the person opened the history. */
  versions?: SyncVersion[];
}

interface SyncStore {
  byAgent: Record<string, AgentSync>;
  /** The agent whose sync panel is open in place of the chat. */
  panelAgentId: string | null;
  /** Follows every folder's status while something on screen needs it; returns the unsubscribe. */
  watch(): Unsubscribe;
  load(agentId: string): Promise<void>;
  choose(agentId: string, root?: string): Promise<boolean>;
  /** The system's folder picker; the path, or null when cancelled or unavailable. */
  pick(agentId: string, startAt?: string): Promise<string | null>;
  stop(agentId: string): Promise<boolean>;
  pause(agentId: string): Promise<void>;
  resume(agentId: string): Promise<void>;
  syncNow(agentId: string): Promise<void>;
  confirmDeletes(agentId: string): Promise<void>;
  resolve(agentId: string, key: string, choice: SyncConflictChoice): Promise<void>;
  /** Loads the versions the sync kept for the folder (of one path, or all). */
  loadVersions(agentId: string, path?: string): Promise<void>;
  /** Puts a kept version back in the folder; the sync then sends it to the agent. */
  restoreVersion(agentId: string, id: number): Promise<void>;
  open(agentId: string, target: SyncOpenTarget): Promise<void>;
  openPanel(agentId: string): void;
  closePanel(): void;
  clearError(agentId: string): void;
}

const blank: AgentSync = {
  folder: undefined,
  defaultRoot: '',
  canPickFolder: false,
  loading: false,
  busy: null,
  error: '',
};

let watchers = 0;
let stopFeed: Unsubscribe | undefined;

export const useSyncStore = create<SyncStore>((set, get) => {
  const patch = (agentId: string, change: Partial<AgentSync>): void =>
    set({ byAgent: { ...get().byAgent, [agentId]: { ...blank, ...get().byAgent[agentId], ...change } } });

  /** Runs one bridge action for an agent: its button waits, and a failure becomes a sentence. */
  const act = async <T>(
    agentId: string,
    busy: string,
    call: () => Promise<DeskResult<T>>,
    onValue?: (value: T) => void,
  ): Promise<boolean> => {
    patch(agentId, { busy, error: '' });
    const result = await call();
    if (result.ok) {
      patch(agentId, { busy: null });
      onValue?.(result.value);
      return true;
    }
    patch(agentId, { busy: null, error: errorWords(result.error) });
    return false;
  };

  const showFolder = (agentId: string) => (folder: SyncFolderStatus) => patch(agentId, { folder });

  return {
    byAgent: {},
    panelAgentId: null,

    watch() {
      watchers += 1;
      if (watchers === 1) {
        stopFeed = desk().onSyncStatus((state) => {
          const known = get().byAgent[state.agentId];
          // A late "stopped" for a folder the person already let go of must not bring it back.
          if (known?.folder === null && state.status.state === 'stopped') return;
          patch(state.agentId, { folder: state });
        });
      }
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        watchers -= 1;
        if (watchers === 0) {
          stopFeed?.();
          stopFeed = undefined;
          set({ byAgent: {}, panelAgentId: null });
        }
      };
    },

    async load(agentId) {
      patch(agentId, { loading: true });
      const result = await desk().getSyncFolder(agentId);
      if (!result.ok) return patch(agentId, { loading: false, error: errorWords(result.error) });
      const { folder, defaultRoot, canPickFolder } = result.value;
      patch(agentId, { loading: false, folder, defaultRoot, canPickFolder });
    },

    choose: (agentId, root) =>
      act(agentId, 'choose', () => desk().setSyncFolder(agentId, root), showFolder(agentId)),

    async pick(agentId, startAt) {
      let picked: string | null = null;
      await act(
        agentId,
        'pick',
        () => desk().pickSyncFolder(startAt),
        (path) => (picked = path),
      );
      return picked;
    },

    stop: (agentId) =>
      act(
        agentId,
        'stop',
        () => desk().stopSync(agentId),
        () => patch(agentId, { folder: null }),
      ),

    async pause(agentId) {
      await act(agentId, 'pause', () => desk().pauseSync(agentId), showFolder(agentId));
    },
    async resume(agentId) {
      await act(agentId, 'resume', () => desk().resumeSync(agentId), showFolder(agentId));
    },
    async syncNow(agentId) {
      await act(agentId, 'sync', () => desk().syncNow(agentId), showFolder(agentId));
    },
    async confirmDeletes(agentId) {
      await act(agentId, 'deletes', () => desk().confirmSyncDeletes(agentId), showFolder(agentId));
    },
    async resolve(agentId, key, choice) {
      await act(
        agentId,
        `conflict:${key}`,
        () => desk().resolveSyncConflict(agentId, key, choice),
        showFolder(agentId),
      );
    },
    async loadVersions(agentId, path) {
      await act(
        agentId,
        'versions',
        () => desk().listSyncVersions(agentId, path),
        (versions) => patch(agentId, { versions }),
      );
    },
    async restoreVersion(agentId, id) {
      const restored = await act(
        agentId,
        `restore:${id}`,
        () => desk().restoreSyncVersion(agentId, id),
        showFolder(agentId),
      );
      if (restored) await get().loadVersions(agentId);
    },
    async open(agentId, target) {
      await act(agentId, `open:${target}`, () => desk().openSyncFolder(agentId, target));
    },

    openPanel(agentId) {
      set({ panelAgentId: agentId });
    },
    closePanel() {
      set({ panelAgentId: null });
    },
    clearError(agentId) {
      patch(agentId, { error: '' });
    },
  };
});
