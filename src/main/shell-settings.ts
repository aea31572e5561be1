import { homedir } from 'node:os';
import { join } from 'node:path';
import type { App } from 'electron';
import type { Logger } from '../core/log/logger';
import type { AppSettings } from '../shared/bridge';
import type { ShortcutBinding } from './global-shortcut';
import { applyOpenAtLogin } from './open-at-login';
import type { UpdateController } from './updater';

/** The settings the desktop shell owns: update channel, the global shortcuts, open at login. */
export function applyShellSettings(
  settings: AppSettings,
  parts: {
    updates: Pick<UpdateController, 'setChannel'>;
    shortcut: ShortcutBinding;
    quickShortcut: ShortcutBinding;
    app: Pick<App, 'setLoginItemSettings'>;
    log: Logger;
  },
): void {
  parts.updates.setChannel(settings.updateChannel);
  parts.shortcut.apply(settings.globalShortcut);
  parts.quickShortcut.apply(settings.quickChatShortcut);
  void applyOpenAtLogin(settings.openAtLogin, {
    app: parts.app,
    platform: process.platform,
    // Inside an AppImage, execPath is a temporary mount: autostart must run the AppImage itself.
    command: process.env['APPIMAGE'] ?? process.execPath,
    configHome: process.env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config'),
  }).catch((error: unknown) => parts.log.warn('Open at login could not be changed.', error));
}
