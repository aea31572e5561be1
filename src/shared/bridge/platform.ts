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
  /** Opens an https link in the system browser; any other scheme is refused. */
  openExternal(url: string): Promise<DeskResult<void>>;
  getPlatform(): Promise<DeskResult<PlatformInfo>>;
}

export const platformArea = bridgeArea<PlatformMethods>()({
  calls: ['notify', 'openExternal', 'getPlatform'],
});
