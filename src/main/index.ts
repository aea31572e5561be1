import { join } from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  net,
  Notification,
  protocol,
  safeStorage,
  session,
  shell,
} from 'electron';
import electronUpdater from 'electron-updater';
import { createLogger, consoleSink } from '../core/log/logger';
import { createBridgeDispatcher } from '../core/host/dispatch';
import { createHost, type DeskHost } from '../core/host';
import { platformInfo } from '../core/host/platform/platform-info';
import { makePrivateDataDir, usePrivateUmask } from '../core/profiles/data-dir';
import { startService } from '../service/index';
import { APP_INDEX_URL, appSchemePrivileges, serveAppProtocol } from './app-protocol';
import { registerBridgeIpc } from './ipc';
import { installPermissionHandlers } from './permissions';
import { buildMenuTemplate } from './menu';
import { chooseDesktopSecretStore } from './secret-stores';
import { createSenderCheck } from './sender-check';
import { checkForUpdates } from './updater';
import { createMainWindow } from './window';
import { isExternalLinkAllowed, isSignInUrlAllowed } from './window-options';

const HELP_URL = 'https://github.com/agentdesk/agentdesk#readme';
const logger = createLogger((level, line) => {
  if (level !== 'debug') consoleSink(level, line);
}, 'main');

/** Our windows' webContents: the only senders IPC accepts. */
const ourContents = new Set<number>();
let host: DeskHost | undefined;

function openWindow(): BrowserWindow {
  const window = createMainWindow();
  const id = window.webContents.id;
  ourContents.add(id);
  window.on('closed', () => ourContents.delete(id));
  return window;
}

async function start(): Promise<void> {
  const userData = app.getPath('userData');
  // Everything the app writes for the person is theirs alone (profiles, sync state, the local service's data).
  usePrivateUmask();
  await makePrivateDataDir(userData);
  const secrets = await chooseDesktopSecretStore(safeStorage, {
    userDataDir: userData,
    platform: process.platform,
  });
  for (const skipped of secrets.skipped)
    logger.warn(`Secret store ${skipped.kind} not used: ${skipped.reason}`);

  host = await createHost({
    dataDir: userData,
    secrets: secrets.store,
    logger,
    // Electron's net.fetch follows the system proxy and certificate store.
    fetch: (input, init) => net.fetch(input instanceof URL ? input.href : input, init),
    startEmbeddedService: ({ dataDir }) => {
      // The service runs the demo agent from its prebuilt bundle (electron.vite.config.ts builds it next to us).
      process.env['AGENTDESK_DEMO_AGENT_JS'] ??= join(__dirname, 'demo-agent.js');
      return startService({ dataDir, port: 0 });
    },
    openBrowser: async (url) => {
      if (!isSignInUrlAllowed(url))
        throw new Error('the sign-in address is neither https nor on this computer');
      await shell.openExternal(url);
    },
    os: {
      platform: platformInfo(process.platform, 'electron'),
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
    },
  });

  const rendererUrl = process.env['ELECTRON_RENDERER_URL'] ?? APP_INDEX_URL;
  serveAppProtocol(protocol, join(__dirname, '../renderer'));
  const appUrl = new URL(rendererUrl);
  installPermissionHandlers(session.defaultSession, `${appUrl.protocol}//${appUrl.host}`);
  registerBridgeIpc({
    ipcMain,
    dispatcher: createBridgeDispatcher(host, (error) => logger.error('A bridge call failed.', error)),
    isTrustedSender: createSenderCheck({ trustedContentsIds: () => ourContents, rendererUrl }),
    onRefused: (channel) => logger.warn(`Refused ${channel} from a page that is not AgentDesk.`),
  });

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate(
        process.platform,
        app.name,
        { openHelp: () => void shell.openExternal(HELP_URL) },
        { devTools: !app.isPackaged },
      ),
    ),
  );

  openWindow();
  void checkForUpdates({
    updater: electronUpdater.autoUpdater,
    isPackaged: app.isPackaged,
    log: (line) => logger.info(line),
  });
}

// Before the app is ready, or the scheme is not standard and secure.
protocol.registerSchemesAsPrivileged([...appSchemePrivileges]);

// One instance only: a second launch focuses the first window.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [window] = BrowserWindow.getAllWindows();
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });

  void app
    .whenReady()
    .then(start)
    .then(() => {
      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0) openWindow();
      });
    })
    .catch((error: unknown) => {
      logger.error('AgentDesk could not start.', error);
      app.quit();
    });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Stop the embedded service and open streams before leaving.
  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped || !host) return;
    event.preventDefault();
    void host.close().finally(() => {
      stopped = true;
      app.quit();
    });
  });
}
