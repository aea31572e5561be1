/**
 * The contract between the renderer and its host (Electron preload, browser
 * mode, or a test double). The renderer reaches the host only through
 * `window.desk`, which implements `DeskBridge`.
 *
 * Rules every carrier keeps:
 * - every method is async and never rejects: it resolves to a `DeskResult`,
 *   whose failure is a value `{ code, message }` with a plain sentence;
 * - every `on*` method takes its listener last and returns an `Unsubscribe`;
 * - everything crossing the bridge is plain JSON (no classes, no functions
 *   except listeners), so the same contract runs over IPC and a WebSocket.
 *
 * Platform-free: this file imports only types from `./api`.
 */
import type {
  AgentConfig,
  AgentConfigQuery,
  Archivo,
  CancelResult,
  Compartida,
  ConversationCreated,
  ConversationResponse,
  ConversationsResponse,
  FileDeletedResult,
  FileUrlResponse,
  FilesResponse,
  MeAgentsResponse,
  MessageImage,
  PatchAgentBody,
  PermissionBody,
  PermissionResult,
  Permisos,
  PostMessageAccepted,
  ScheduleBody,
  ScheduleCreated,
  ScheduleListResponse,
  Scope,
  SseEvent,
  TurnoProgramado,
} from './api';

export type Unsubscribe = () => void;

// --- Results and errors ----------------------------------------------------------------------

/**
 * A failure that crossed the bridge. `code` is stable for programs (an API
 * `error` such as `agente_no_acp`, or one of ours such as `signed_out`);
 * `message` is a plain sentence for people. `status` is the HTTP status when
 * the failure came from the API; `retryAfterSeconds` when the server said so.
 */
export interface DeskError {
  code: string;
  message: string;
  status?: number;
  retryAfterSeconds?: number;
}

export type DeskResult<T> = { ok: true; value: T } | { ok: false; error: DeskError };

/** Codes the host itself produces (API error codes pass through unchanged). */
export const deskErrorCodes = {
  /** No profile is active, or the person is not signed in. */
  signedOut: 'signed_out',
  /** The refresh token was refused (`invalid_grant`): sign in again. */
  sessionExpired: 'session_expired',
  /** A sign-in is already running for this profile. */
  signInInProgress: 'sign_in_in_progress',
  signInCancelled: 'sign_in_cancelled',
  signInTimedOut: 'sign_in_timed_out',
  /** The browser came back with `error=` (e.g. access_denied). */
  signInRefused: 'sign_in_refused',
  /** The callback's `state` did not match. */
  signInStateMismatch: 'sign_in_state_mismatch',
  /** The server could not be reached. */
  network: 'network',
  /** The server answered something the contract does not allow. */
  badResponse: 'bad_response',
  /** The call's arguments were refused before leaving the host. */
  invalidArgument: 'invalid_argument',
  unknownProfile: 'unknown_profile',
  /** The embedded local service could not start. */
  serviceUnavailable: 'service_unavailable',
  /** The bridge carrier itself failed (socket closed, IPC sender refused). */
  bridgeUnavailable: 'bridge_unavailable',
  unknownMethod: 'unknown_method',
  /** This host cannot do that (e.g. a folder picker in browser mode). */
  notAvailable: 'not_available',
  /** The agent has no sync folder yet. */
  syncNotSetUp: 'sync_not_set_up',
  /** Sync could not start or run the action; the message says why. */
  syncFailed: 'sync_failed',
  /** The OS could not open the folder or file. */
  openFailed: 'open_failed',
  internal: 'internal',
} as const;

// --- Accounts and session --------------------------------------------------------------------

/**
 * A service profile: where the API lives and how this app signs in there.
 * `local` is "this computer": the embedded local service the app starts
 * itself. No secrets are ever part of a profile.
 */
export type ServiceProfile =
  | {
      id: string;
      kind: 'local';
      name: string;
      clientId: string;
      /** The running local service's address, once started. */
      baseUrl?: string;
    }
  | {
      id: string;
      kind: 'custom';
      name: string;
      baseUrl: string;
      clientId: string;
      /** Loopback ports registered for this client, tried before an ephemeral one. */
      loopbackPorts?: number[];
    };

export interface ProfilesState {
  profiles: ServiceProfile[];
  activeProfileId: string | null;
}

export interface AddCustomProfileInput {
  baseUrl: string;
  clientId: string;
  loopbackPorts?: number[];
  /** Shown in the account switcher; defaults to the server's host name. */
  name?: string;
}

/** Where a running sign-in is. `authorizeUrl` is shown as a fallback link when no browser opened. */
export type SignInPhase = 'starting-service' | 'waiting-for-browser' | 'exchanging-code';

export interface SignInProgress {
  phase: SignInPhase;
  authorizeUrl?: string;
}

/** Which secret store keeps tokens, and any warning the person must see. */
export interface SecretStoreState {
  kind: 'keychain' | 'safe-storage' | 'memory';
  /** Present when tokens are less protected than a keychain (Linux `basic_text`, memory only). */
  warning?: string;
}

export type SessionStatus = 'signed-out' | 'signing-in' | 'signed-in';

export interface SessionState {
  status: SessionStatus;
  profile: ServiceProfile | null;
  /** Who is signed in (from `GET /api/v2/me/agents`), when known. */
  user?: { id: string; email?: string };
  scopes?: Scope[];
  /** Set while `status` is `signing-in`. */
  signIn?: SignInProgress;
  /** Why the person is signed out when it was not their choice (expired session, refused sign-in). */
  signedOutReason?: DeskError;
  secretStore: SecretStoreState;
}

// --- Conversations, turns, files -------------------------------------------------------------

/** A conversation's public link state plus the address people open. */
export type ShareState = Compartida & { publicUrl: string | null };

export interface SendMessageInput {
  content: string;
  /** Attachments of any type, max 8 (the API calls them `images`). */
  attachments?: MessageImage[];
  primerTurno?: boolean;
  /** `preguntar` when the UI renders and answers `permission` events. */
  permisos?: Permisos;
  /** Idempotency key; the host picks a uuid when absent and reuses it on every retry. */
  turnId?: string;
}

export interface GetConversationOptions {
  /** Only the last `limit` messages; the response's `saltados` says how many were left out. */
  limit?: number;
}

export interface UploadFileInput {
  nombre: string;
  /** Sent as the upload's Content-Type; defaults to application/octet-stream. */
  mimeType?: string;
  /** File bytes, base64 (plain JSON so every carrier can move it). */
  dataBase64: string;
}

/** One SSE event of a conversation, with the stream's `id:` when the server stamped one. */
export type ConversationStreamEvent = SseEvent & { id?: string };

/**
 * The stream's connection, for a reconnecting indicator. `reconnecting`
 * carries the attempt (1, 2, ... since the stream was last open) and the
 * reason when known; `closed` follows an error
 * that ends the subscription (e.g. 404, signed out).
 */
export type StreamConnection =
  | { state: 'connecting' }
  | { state: 'open' }
  | { state: 'reconnecting'; attempt: number; delayMs?: number; reason?: string }
  | { state: 'closed'; error?: DeskError };

export type ConversationUpdate =
  { kind: 'event'; event: ConversationStreamEvent } | { kind: 'connection'; connection: StreamConnection };

// --- OS helpers ------------------------------------------------------------------------------

export interface PlatformInfo {
  os: 'mac' | 'windows' | 'linux' | 'other';
  /** Which host runs the renderer. */
  shell: 'electron' | 'browser';
  /** The key shortcuts use: Cmd on macOS, Ctrl elsewhere. */
  modifierKey: 'Cmd' | 'Ctrl';
}

export interface NotificationInput {
  title: string;
  body?: string;
}

// --- Sync (issue 8): one synced folder per agent, see docs/sync.md ----------------------------

/** Where a synced folder is. `paused` covers both the person's pause and a mass delete awaiting confirmation. */
export type SyncState = 'idle' | 'scanning' | 'syncing' | 'paused' | 'error' | 'stopped';

/** Why a file is left out of sync. */
export type SyncSkipReason = 'too-large' | 'symlink' | 'invalid-name' | 'upload-only' | 'name-clash';

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
  pendingDeletes?: { side: 'local' | 'remote'; deletes: number; total: number };
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

// --- The contract ----------------------------------------------------------------------------

export interface DeskBridge {
  // Accounts
  listProfiles(): Promise<DeskResult<ProfilesState>>;
  /** Adds (or returns the existing) "this computer" profile and makes it active. */
  addLocalProfile(): Promise<DeskResult<ServiceProfile>>;
  /** Adds a custom server profile and makes it active. */
  addCustomProfile(input: AddCustomProfileInput): Promise<DeskResult<ServiceProfile>>;
  switchProfile(profileId: string): Promise<DeskResult<SessionState>>;
  /** Forgets a profile and its tokens. */
  removeProfile(profileId: string): Promise<DeskResult<ProfilesState>>;
  getSession(): Promise<DeskResult<SessionState>>;
  /**
   * Signs in to the active profile through the system browser (in browser
   * mode, a new tab of the page's own browser). Resolves when the sign-in
   * ends; progress arrives through `onSessionChange`.
   */
  signIn(): Promise<DeskResult<SessionState>>;
  cancelSignIn(): Promise<DeskResult<SessionState>>;
  /** Revokes and forgets the active profile's tokens. */
  signOut(): Promise<DeskResult<SessionState>>;
  onSessionChange(listener: (session: SessionState) => void): Unsubscribe;

  // Agents
  listAgents(): Promise<DeskResult<MeAgentsResponse>>;
  getAgentConfig(agentId: string, query?: AgentConfigQuery): Promise<DeskResult<AgentConfig>>;
  patchAgentConfig(agentId: string, patch: PatchAgentBody): Promise<DeskResult<AgentConfig>>;

  // Conversations
  listConversations(agentId: string): Promise<DeskResult<ConversationsResponse>>;
  createConversation(agentId: string): Promise<DeskResult<ConversationCreated>>;
  getConversation(
    agentId: string,
    sessionId: string,
    options?: GetConversationOptions,
  ): Promise<DeskResult<ConversationResponse>>;
  renameConversation(agentId: string, sessionId: string, title: string): Promise<DeskResult<void>>;
  archiveConversation(agentId: string, sessionId: string): Promise<DeskResult<void>>;

  // Sharing
  getShare(agentId: string, sessionId: string): Promise<DeskResult<ShareState>>;
  share(agentId: string, sessionId: string): Promise<DeskResult<ShareState>>;
  unshare(agentId: string, sessionId: string): Promise<DeskResult<ShareState>>;

  // Turns
  /** Resolves with the 202 body; 503 and 429 are retried inside with the same `turnId`. */
  sendMessage(
    agentId: string,
    sessionId: string,
    input: SendMessageInput,
  ): Promise<DeskResult<PostMessageAccepted>>;
  cancelTurn(agentId: string, sessionId: string): Promise<DeskResult<CancelResult>>;
  answerPermission(
    agentId: string,
    sessionId: string,
    answer: PermissionBody,
  ): Promise<DeskResult<PermissionResult>>;
  /** Applies from the next turn. */
  setModel(agentId: string, sessionId: string, model: string): Promise<DeskResult<void>>;
  /**
   * Live events of one conversation: the server replays the current turn on
   * connect, then streams; connection changes arrive as `connection` updates.
   */
  onConversationEvent(
    agentId: string,
    sessionId: string,
    listener: (update: ConversationUpdate) => void,
  ): Unsubscribe;

  // Schedules
  listSchedules(agentId: string, sessionId: string): Promise<DeskResult<ScheduleListResponse>>;
  createSchedule(
    agentId: string,
    sessionId: string,
    body: ScheduleBody,
  ): Promise<DeskResult<ScheduleCreated>>;
  deleteSchedule(
    agentId: string,
    sessionId: string,
    scheduleId: TurnoProgramado['id'],
  ): Promise<DeskResult<void>>;

  // Account file library
  listFiles(): Promise<DeskResult<FilesResponse>>;
  uploadFile(input: UploadFileInput): Promise<DeskResult<Archivo>>;
  deleteFile(fileId: string): Promise<DeskResult<FileDeletedResult>>;
  /** A fresh signed URL (valid 6 h). */
  getFileUrl(fileId: string): Promise<DeskResult<FileUrlResponse>>;

  // OS helpers
  notify(notification: NotificationInput): Promise<DeskResult<void>>;
  /** Opens an https link in the system browser; any other scheme is refused. */
  openExternal(url: string): Promise<DeskResult<void>>;
  getPlatform(): Promise<DeskResult<PlatformInfo>>;

  // Sync (issue 8): the agent's files in a local folder, kept in step both ways.
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
  syncNow(agentId: string): Promise<DeskResult<SyncFolderStatus>>;
  /** Goes ahead with the mass deletion the status's `pendingDeletes` describes. */
  confirmSyncDeletes(agentId: string): Promise<DeskResult<SyncFolderStatus>>;
  resolveSyncConflict(
    agentId: string,
    key: string,
    choice: SyncConflictChoice,
  ): Promise<DeskResult<SyncFolderStatus>>;
  openSyncFolder(agentId: string, target: SyncOpenTarget): Promise<DeskResult<void>>;
  /** The system's folder picker: the chosen path, or null when cancelled; `not_available` outside the desktop app. */
  pickSyncFolder(defaultPath?: string): Promise<DeskResult<string | null>>;
  /** Every synced folder's status as it changes (the current ones first). */
  onSyncStatus(listener: (state: SyncFolderStatus) => void): Unsubscribe;
}

export type BridgeMethodName = keyof DeskBridge;

/** The subscription methods: the listener is the last argument, the return an Unsubscribe. */
export const bridgeSubscriptionNames = [
  'onSessionChange',
  'onConversationEvent',
  'onSyncStatus',
] as const satisfies readonly Extract<BridgeMethodName, `on${string}`>[];

export type BridgeSubscriptionName = (typeof bridgeSubscriptionNames)[number];
export type BridgeCallName = Exclude<BridgeMethodName, BridgeSubscriptionName>;

/** Every name on `DeskBridge`, so carriers (preload, browser socket) expose exactly these. */
export const bridgeMethodNames = [
  'listProfiles',
  'addLocalProfile',
  'addCustomProfile',
  'switchProfile',
  'removeProfile',
  'getSession',
  'signIn',
  'cancelSignIn',
  'signOut',
  'onSessionChange',
  'listAgents',
  'getAgentConfig',
  'patchAgentConfig',
  'listConversations',
  'createConversation',
  'getConversation',
  'renameConversation',
  'archiveConversation',
  'getShare',
  'share',
  'unshare',
  'sendMessage',
  'cancelTurn',
  'answerPermission',
  'setModel',
  'onConversationEvent',
  'listSchedules',
  'createSchedule',
  'deleteSchedule',
  'listFiles',
  'uploadFile',
  'deleteFile',
  'getFileUrl',
  'notify',
  'openExternal',
  'getPlatform',
  'listSyncFolders',
  'getSyncFolder',
  'setSyncFolder',
  'stopSync',
  'pauseSync',
  'resumeSync',
  'syncNow',
  'confirmSyncDeletes',
  'resolveSyncConflict',
  'openSyncFolder',
  'pickSyncFolder',
  'onSyncStatus',
] as const satisfies readonly BridgeMethodName[];

// Compile-time proof that the list names every method of the interface.
type MissingFromList = Exclude<BridgeMethodName, (typeof bridgeMethodNames)[number]>;
const listIsComplete: [MissingFromList] extends [never] ? true : MissingFromList = true;
void listIsComplete;

export function isBridgeSubscriptionName(name: string): name is BridgeSubscriptionName {
  return (bridgeSubscriptionNames as readonly string[]).includes(name);
}

export function isBridgeCallName(name: string): name is BridgeCallName {
  return (bridgeMethodNames as readonly string[]).includes(name) && !isBridgeSubscriptionName(name);
}

/** The channel names carriers use, one per method (never a generic invoke). */
export const bridgeChannels = {
  /** Request/response channel of a call method. */
  call: (name: BridgeCallName) => `desk:${name}`,
  /** Starts a subscription; the host answers with nothing and then sends events. */
  subscribe: (name: BridgeSubscriptionName) => `desk:${name}:subscribe`,
  /** Ends a subscription. */
  unsubscribe: (name: BridgeSubscriptionName) => `desk:${name}:unsubscribe`,
  /** Host -> renderer events of a subscription, tagged with the subscription id. */
  event: (name: BridgeSubscriptionName) => `desk:${name}:event`,
} as const;
