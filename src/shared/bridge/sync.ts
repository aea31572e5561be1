/** The sync area (issue 8): one synced folder per agent, kept in step both ways; see docs/sync.md. */
import { bridgeArea } from './bridge-area';
import type { DeskResult, Unsubscribe } from './desk-result';

/** Where a synced folder is. `paused` covers both the person's pause and a mass delete awaiting confirmation. */
export type SyncState = 'idle' | 'scanning' | 'syncing' | 'paused' | 'error' | 'stopped';

/** Why a file is left out of sync. */
export type SyncSkipReason =
  | 'too-large'
  | 'symlink'
  | 'invalid-name'
  | 'upload-only'
  | 'name-clash'
  | 'empty'
  | 'outside-layout'
  | 'looks-like-copy'
  /** Held: an agent-side file this server cannot show changes of would be replaced or deleted (the CLI's --confirm-overwrites). */
  | 'unchecked';

export type SyncConflictChoice = 'mine' | 'theirs' | 'both';

/** `folder` opens the file manager; `editor` opens the agent's instructions.md in the default editor. */
export type SyncOpenTarget = 'folder' | 'editor';

export interface SyncConflict {
  /** Pass it back to `resolveSyncConflict`. */
  key: string;
  path: string;
  /** The agent's version, saved beside the local file (local only), relative to the folder. */
  remoteCopyPath: string;
  /** Epoch ms when the conflict was found. */
  at: number;
}

export interface SyncStatus {
  state: SyncState;
  root: string;
  /** Progress of the running sync: `done` of `total` file operations. */
  done: number;
  total: number;
  /** Epoch ms of the last sync that finished without failures. */
  lastSyncAt?: number;
  /** A plain sentence for `error`, `paused` and `stopped`. */
  message?: string;
  /** Set when the server limits sync, e.g. upload-only `work/`. */
  limitation?: string;
  conflicts: SyncConflict[];
  skipped: { path: string; reason: SyncSkipReason }[];
  failures: { path: string; message: string }[];
  /** Set while a mass deletion waits for the person's confirmation. */
  pendingDeletes?: { side: 'local' | 'remote'; deletes: number; total: number; recent?: number };
  /**
   * Set (with state `error` and the reason in `message`) while this app could not start syncing the
   * folder: `held` when another AgentDesk process (the CLI, another window) syncs it, `failed` for any
   * other reason. The app tries again by itself at `nextTryAt` (epoch ms); `syncNow` tries at once.
   */
  notStarted?: { reason: 'held' | 'failed'; nextTryAt: number };
  /**
   * Set while the agent's server cannot be reached (the connection fails): its address and since
   * when (epoch ms). Changes are kept and sent once it is back; `message` says so in plain words.
   */
  unreachable?: { server: string; since: number };
  /**
   * Set (with state `error` and the words in `message`) while a disk the sync writes to is full: what it holds
   * ("the sync folder"), where, and since when (epoch ms). Nothing is deleted; the sync tries again by itself,
   * backing off, and goes on once there is space.
   */
  diskFull?: { what: string; where: string; since: number };
  /** Plain sentences said once each, newest last (a few are kept): see SyncNotice. */
  notices?: SyncNotice[];
}

/**
 * Something the sync did or could not check that the person should hear about once: a conflict
 * settled because its copy was deleted, the server reachable again, an overwrite it could not check.
 */
export interface SyncNotice {
  /** Stable per event: a reporter says each id once. */
  id: string;
  /** Epoch ms. */
  at: number;
  text: string;
}

/** A version the sync kept before it overwrote or deleted it (the folder's version history). */
export interface SyncVersion {
  /** Pass it back to `restoreSyncVersion`. */
  id: number;
  path: string;
  /** Epoch ms when it was kept. */
  at: number;
  /** Whose it was: the person's folder (`local`) or the agent (`remote`). */
  source: 'local' | 'remote';
  size: number;
}

/** How much the folder's version history holds, and the most it may hold (the oldest go first beyond it). */
export interface SyncHistoryUse {
  usedBytes: number;
  capBytes: number;
}

export interface SyncFolderStatus {
  agentId: string;
  root: string;
  agentName: string;
  status: SyncStatus;
}

/** What the sync panel needs to offer a folder for an agent. */
export interface SyncFolderChoice {
  agentId: string;
  /** The folder being synced, or null when the agent has none. */
  folder: SyncFolderStatus | null;
  /** The suggested folder: ~/AgentDesk/<agent name>. */
  defaultRoot: string;
  /** True when `pickSyncFolder` can show the system's folder picker (the desktop app). */
  canPickFolder: boolean;
}

export interface SyncMethods {
  listSyncFolders(): Promise<DeskResult<SyncFolderStatus[]>>;
  getSyncFolder(agentId: string): Promise<DeskResult<SyncFolderChoice>>;
  /**
   * Syncs `root` (an absolute path; by default ~/AgentDesk/<agent name>) with the agent, replacing
   * its earlier folder, and remembers the choice. Resolves after the first sync; progress arrives
   * through `onSyncStatus`.
   */
  setSyncFolder(agentId: string, root?: string): Promise<DeskResult<SyncFolderStatus>>;
  /** Stops syncing the agent; both sides keep their files. */
  stopSync(agentId: string): Promise<DeskResult<void>>;
  pauseSync(agentId: string): Promise<DeskResult<SyncFolderStatus>>;
  resumeSync(agentId: string): Promise<DeskResult<SyncFolderStatus>>;
  /** Syncs now; a folder that could not start (`notStarted`) tries to start again. */
  syncNow(agentId: string): Promise<DeskResult<SyncFolderStatus>>;
  /** Goes ahead with the mass deletion the status's `pendingDeletes` describes. */
  confirmSyncDeletes(agentId: string): Promise<DeskResult<SyncFolderStatus>>;
  /**
   * Instead of confirming, brings back into the folder the files whose deletion from the agent waits
   * (`pendingDeletes.side` `remote`): downloaded again, nothing deleted on either side.
   */
  bringBackSyncDeletes(agentId: string): Promise<DeskResult<SyncFolderStatus>>;
  resolveSyncConflict(
    agentId: string,
    key: string,
    choice: SyncConflictChoice,
  ): Promise<DeskResult<SyncFolderStatus>>;
  /** The versions the sync kept for the agent's folder, newest first; of one path when given. */
  listSyncVersions(agentId: string, path?: string): Promise<DeskResult<SyncVersion[]>>;
  /** Puts a kept version back in the folder (keeping the one it replaces), then syncs it. */
  restoreSyncVersion(agentId: string, id: number): Promise<DeskResult<SyncFolderStatus>>;
  /** How much the folder's version history holds, and its size cap. */
  getSyncHistoryUse(agentId: string): Promise<DeskResult<SyncHistoryUse>>;
  /**
   * Sets the history's size cap (whole MB in bytes, 1 MB to 1 TB); over it the oldest versions go at once.
   * Shared with the CLI (`agentdesk sync history <folder> --cap <MB>`).
   */
  setSyncHistoryCap(agentId: string, capBytes: number): Promise<DeskResult<SyncHistoryUse>>;
  openSyncFolder(agentId: string, target: SyncOpenTarget): Promise<DeskResult<void>>;
  /** The system's folder picker: the chosen path, or null when cancelled; `not_available` outside the desktop app. */
  pickSyncFolder(defaultPath?: string): Promise<DeskResult<string | null>>;
  /** Every synced folder's status as it changes (the current ones first). */
  onSyncStatus(listener: (state: SyncFolderStatus) => void): Unsubscribe;
}

export const syncArea = bridgeArea<SyncMethods>()({
  calls: [
    'listSyncFolders',
    'getSyncFolder',
    'setSyncFolder',
    'stopSync',
    'pauseSync',
    'resumeSync',
    'syncNow',
    'confirmSyncDeletes',
    'bringBackSyncDeletes',
    'resolveSyncConflict',
    'listSyncVersions',
    'restoreSyncVersion',
    'getSyncHistoryUse',
    'setSyncHistoryCap',
    'openSyncFolder',
    'pickSyncFolder',
  ],
  subscriptions: ['onSyncStatus'],
});
