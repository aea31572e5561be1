/**
 * The sync's one door: everything outside `core/sync/` comes in here (`npm run deps` forbids
 * reaching past it). Behind it, one room per part (docs/sync.md): `plan/` (pure), `state/`,
 * `local/`, `remote/`, `history/`, `run/` (carrying out), `engine/` (one folder), `folders/`.
 */

// Opening a folder to sync it: its lock, then its state, then the engine (the app and the CLI alike).
export { SyncedFolder, type EngineChoices, type FolderPlace } from './folders/synced-folder';
// Every folder of the signed-in person, for the desktop host.
export { SyncManager, type SyncFolderState, type SyncManagerOptions } from './folders/sync-manager';
export { defaultSyncFolder } from './folders/folder-choices';
// Finding a folder: its agent (the marker), its shared state, the agent's side.
export { readRootMarker } from './state/root-marker';
export { locateFolderState } from './state/state-location';
export { remoteForAgent } from './remote/remote-for-agent';
export type { RemoteSide } from './plan/remote-side';
// Reading a folder while another process may hold it: conflicts, the holder, the version history.
export { FolderRecords } from './folders/folder-records';
export { FolderBusyError, folderOwner, type LockOwner } from './state/folder-lock';
export { VersionHistory, type VersionRecord } from './history/version-history';
export { historyUse, type HistoryUse } from './history/history-use';
export { restoreKeptVersion, versionToRestore } from './history/version-restore';
// What a status says.
export type { ConflictChoice, SyncEngine, SyncStatus } from './engine/sync-engine';
export type { SkipReason } from './plan/sync-plan-types';
export { uncheckedNoticeId } from './plan/unchecked-overwrites';
