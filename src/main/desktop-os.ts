import { BrowserWindow, dialog, Notification, shell } from 'electron';
import type { HostOs } from '../core/host/host-options';
import { platformInfo } from '../core/host/platform/platform-info';
import type { createDeepLinkInbox } from './deep-link-inbox';
import type { QuickWindow } from './quick-window';
import type { createUpdateController } from './updater';
import { isExternalLinkAllowed } from './window-options';

/** What the desktop shell lends the host: the tray and its kin, notices, links, files and folder pickers. */
export function desktopOs(deps: {
  updates: ReturnType<typeof createUpdateController>;
  logFile: string | undefined;
  showLogs(): Promise<void>;
  inbox: ReturnType<typeof createDeepLinkInbox>;
  quick: Pick<QuickWindow, 'close'>;
}): HostOs {
  const { updates, logFile, showLogs, inbox, quick } = deps;
  return {
    platform: platformInfo(process.platform, 'electron'),
    shell: {
      tray: true,
      globalShortcut: true,
      openAtLogin: true,
      logFile,
      updates,
      showLogs,
      onShellCommand: (listener) => inbox.subscribe(listener),
      closeQuick: (open) => {
        quick.close();
        if (open) inbox.send({ type: 'open', place: open });
      },
    },
    notify: ({ title, body }) => {
      if (Notification.isSupported()) new Notification({ title, ...(body ? { body } : {}) }).show();
    },
    openExternal: (url) => (isExternalLinkAllowed(url) ? shell.openExternal(url) : undefined),
    openPath: async (path) => {
      // shell.openPath answers an error sentence, or '' when the OS opened it.
      const problem = await shell.openPath(path);
      if (problem) throw new Error(problem);
    },
    pickFolder: async ({ title, defaultPath }) => {
      const options: Electron.OpenDialogOptions = {
        title,
        properties: ['openDirectory', 'createDirectory'],
        ...(defaultPath ? { defaultPath } : {}),
      };
      const parent = BrowserWindow.getFocusedWindow();
      const picked = parent
        ? await dialog.showOpenDialog(parent, options)
        : await dialog.showOpenDialog(options);
      return picked.canceled ? undefined : picked.filePaths[0];
    },
  };
}
