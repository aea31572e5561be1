import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from 'electron';

/**
 * Starts AgentDesk at login, or stops doing so. macOS and Windows keep login items themselves; on Linux
 * the freedesktop way is a desktop entry in ~/.config/autostart.
 */
export async function applyOpenAtLogin(
  enabled: boolean,
  options: {
    app: Pick<App, 'setLoginItemSettings'>;
    platform: NodeJS.Platform;
    /** The command that starts the app (the AppImage's path when run from one). */
    command: string;
    configHome: string;
  },
): Promise<void> {
  if (options.platform !== 'linux') {
    options.app.setLoginItemSettings({ openAtLogin: enabled });
    return;
  }
  const dir = join(options.configHome, 'autostart');
  const entry = join(dir, 'agentdesk.desktop');
  if (!enabled) {
    await rm(entry, { force: true });
    return;
  }
  await mkdir(dir, { recursive: true });
  const exec = /[\s"'\\$`]/.test(options.command)
    ? `"${options.command.replace(/(["\\$`])/g, '\\$1')}"`
    : options.command;
  await writeFile(
    entry,
    [
      '[Desktop Entry]',
      'Type=Application',
      'Name=AgentDesk',
      `Exec=${exec}`,
      'X-GNOME-Autostart-enabled=true',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
}
