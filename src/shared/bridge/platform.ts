/** The platform area: what the OS offers the page (notifications, links, which OS). */
import { bridgeArea } from './bridge-area';
import type { DeskResult, Unsubscribe } from './desk-result';

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

/** Where the updater is; the About box shows `lastError` even when the app is otherwise fine. */
export interface UpdateState {
  phase: 'idle' | 'checking' | 'downloading' | 'ready' | 'up-to-date' | 'failed';
  version?: string;
  percent?: number;
  lastError?: { message: string; at: number };
  lastCheckedAt?: number;
}

/** What this shell offers; browser mode has no tray, updater, global shortcut or open at login. */
export interface ShellInfo {
  /** The log file, or null where nothing is written to one (said in `logNote`). */
  logFile: string | null;
  logNote: string;
  tray: boolean;
  updates: boolean;
  globalShortcut: boolean;
  openAtLogin: boolean;
  /** A plain sentence for whatever this shell does not offer, or null. */
  limits: string | null;
}

/** What the window last showed, restored at start (kept in the data folder, so browser mode has it too). */
export interface UiState {
  lastAgentId: string | null;
  lastSessionId: string | null;
  sidebarWidth: number | null;
  /** The sidebar folded away (Mod+\ or Mod+B), so the chat takes the width. */
  sidebarCollapsed: boolean;
}

/** A place a deep link opens: an agent, or one of its conversations. */
export interface DeepLinkPlace {
  agentId: string;
  sessionId?: string;
}

/** What the OS or the tray asks the window to do: open a place (a deep link), or start a conversation. */
export type ShellCommand = { type: 'open'; place: DeepLinkPlace } | { type: 'new-conversation' };

export interface PlatformMethods {
  notify(notification: NotificationInput): Promise<DeskResult<void>>;
  /** Opens a link in the system browser: https, or http to this computer (127.0.0.1, localhost); others are refused. */
  openExternal(url: string): Promise<DeskResult<void>>;
  getPlatform(): Promise<DeskResult<PlatformInfo>>;
  getShellInfo(): Promise<DeskResult<ShellInfo>>;
  /** The copyable `agentdesk://agent/<id>[/conversation/<sessionId>]` link. */
  deepLinkFor(place: DeepLinkPlace): Promise<DeskResult<string>>;
  getUpdateState(): Promise<DeskResult<UpdateState>>;
  /** Installs a downloaded update and restarts; `busy` while a reply runs or sync writes. */
  restartToUpdate(): Promise<DeskResult<void>>;
  /** Opens the log file's folder (Help → Show logs does the same). */
  showLogs(): Promise<DeskResult<void>>;
  getUiState(): Promise<DeskResult<UiState>>;
  /** Saves the given fields; the rest stay. */
  saveUiState(patch: Partial<UiState>): Promise<DeskResult<UiState>>;
  /**
   * Closes the quick chat window (desktop app), and with a place shows it in the main window.
   * `not_available` where there is no such window (browser mode): the page then leaves for the main page.
   */
  closeQuick(open?: DeepLinkPlace): Promise<DeskResult<void>>;
  onUpdateState(listener: (state: UpdateState) => void): Unsubscribe;
  /** A deep link the OS handed the app (a click elsewhere, a second launch), or a tray choice. */
  onShellCommand(listener: (command: ShellCommand) => void): Unsubscribe;
}

export const platformArea = bridgeArea<PlatformMethods>()({
  calls: [
    'notify',
    'openExternal',
    'getPlatform',
    'getShellInfo',
    'deepLinkFor',
    'getUpdateState',
    'restartToUpdate',
    'showLogs',
    'getUiState',
    'saveUiState',
    'closeQuick',
  ],
  subscriptions: ['onUpdateState', 'onShellCommand'],
});
