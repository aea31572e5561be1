/** The settings area: the app's own preferences, kept in its data folder (never a secret). */
import type { PermissionMode } from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskResult } from './desk-result';

export interface AppSettings {
  theme: 'system' | 'light' | 'dark';
  /** Notify when a reply finishes while the window is not focused. */
  notifications: boolean;
  /** The `permisos` of new messages: `preguntar` asks in the chat, `auto` lets the service decide. */
  permissionMode: PermissionMode;
  /** Where new synced folders go (one per agent); null: ~/AgentDesk. */
  syncRoot: string | null;
  /** Closing the window keeps the app running in the tray (desktop app). */
  closeToTray: boolean;
  /** Shows or hides the window from anywhere, as an Electron accelerator; null: off. */
  globalShortcut: string | null;
  /** Opens a small quick-chat window on top from anywhere (desktop app); null: off. */
  quickChatShortcut: string | null;
  updateChannel: 'stable' | 'beta';
  /** Starts AgentDesk when the person logs in to the computer; off by default. */
  openAtLogin: boolean;
}

export interface AppInfo {
  version: string;
  /** The app's data folder: saved servers, settings, sync state. */
  dataDir: string;
  /** The folder new synced folders go in when `syncRoot` is not set. */
  defaultSyncRoot: string;
  /** True in an installed desktop app, where updates come from its feed. */
  canCheckForUpdates: boolean;
}

export interface UpdateCheck {
  status: 'up-to-date' | 'available' | 'error';
  /** A plain sentence for the person. */
  message: string;
}

export interface SettingsMethods {
  getSettings(): Promise<DeskResult<AppSettings>>;
  /** Saves the given fields (the rest stay) and answers the whole, saved settings. */
  updateSettings(patch: Partial<AppSettings>): Promise<DeskResult<AppSettings>>;
  getAppInfo(): Promise<DeskResult<AppInfo>>;
  /** `not_available` outside an installed desktop app. */
  checkForUpdates(): Promise<DeskResult<UpdateCheck>>;
}

export const settingsArea = bridgeArea<SettingsMethods>()({
  calls: ['getSettings', 'updateSettings', 'getAppInfo', 'checkForUpdates'],
});
