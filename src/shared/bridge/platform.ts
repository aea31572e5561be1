/** The platform area: what the OS offers the page (notifications, links, which OS). */
import { bridgeArea } from './bridge-area';
import type { DeskResult } from './desk-result';

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

export interface PlatformMethods {
  notify(notification: NotificationInput): Promise<DeskResult<void>>;
  /** Opens a link in the system browser: https, or http to this computer (127.0.0.1, localhost); others are refused. */
  openExternal(url: string): Promise<DeskResult<void>>;
  getPlatform(): Promise<DeskResult<PlatformInfo>>;
}

export const platformArea = bridgeArea<PlatformMethods>()({
  calls: ['notify', 'openExternal', 'getPlatform'],
});
