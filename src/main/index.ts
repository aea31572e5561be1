import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  app,
  type BrowserWindow,
  globalShortcut,
  ipcMain,
  Menu,
  nativeImage,
  net,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
  Tray,
} from 'electron';
import electronUpdater from 'electron-updater';
import { createLogger, consoleSink, type LogSink } from '../core/log/logger';
import type { AppSettings } from '../shared/bridge';
import { DEEP_LINK_SCHEME } from '../core/host/platform/deep-link-format';
import { createBridgeDispatcher } from '../core/host/dispatch';
import { createHost, type DeskHost } from '../core/host';
import { desktopDataDir, makePrivateDataDir, usePrivateUmask } from '../core/profiles/data-dir';
import { keychainOf, startAppService } from '../service/index';
import { APP_INDEX_URL, appSchemePrivileges, serveAppProtocol } from './app-protocol';
import { registerBridgeIpc } from './ipc';
import { installPermissionHandlers } from './permissions';
import { buildMenuTemplate } from './menu';
import { chooseDesktopSecretStore } from './secret-stores';
import { createSenderCheck } from './sender-check';
import { createDeepLinkInbox } from './deep-link-inbox';
import { desktopOs } from './desktop-os';
import { deepLinkInArgs } from './deep-links';
import { createShortcutBinding } from './global-shortcut';
import { createQuickWindow } from './quick-window';
import { openRotatingLog } from './log-file';
import { applyShellSettings } from './shell-settings';
import { createAppTray, type AppTray } from './tray';
import { createUpdateController } from './updater';
import { createMainWindow } from './window';
import { loadWindowState, rememberWindowState } from './window-memory';
import { isSignInUrlAllowed } from './window-options';

const HELP_URL = 'https://github.com/agentdesk/agentdesk#readme';
// Lines are redacted by the logger before they reach a sink; the file joins once the data folder is private.
let fileSink: LogSink | undefined;
const sink: LogSink = (level, line) => {
  if (level !== 'debug') consoleSink(level, line);
  fileSink?.(level, line);
};
const logger = createLogger(sink, 'main');
const rendererLogger = createLogger(sink, 'renderer');
let logFile: string | undefined;
let quitting = false;
let tray: AppTray | undefined;
let settingsNow: AppSettings | undefined;
/** The app's window (the quick chat window is another, and never this one). */
let mainWindow: BrowserWindow | undefined;

/** Shows the main window (opening one if needed), or hides it when it is in front. */
function showWindow(): void {
  if (!app.isReady()) return; // a link at launch: the window opens on its own
  const window = mainWindow ?? openWindow();
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
function toggleWindow(): void {
  const window = mainWindow;
  if (window?.isVisible() && window.isFocused()) window.hide();
  else showWindow();
}

/** Our windows' webContents: the only senders IPC accepts. */
const ourContents = new Set<number>();
let host: DeskHost | undefined;

const inbox = createDeepLinkInbox({ log: (line) => logger.warn(line), reveal: showWindow });
const updates = createUpdateController({
  updater: electronUpdater.autoUpdater,
  isPackaged: app.isPackaged,
  channel: 'stable',
  log: (line) => logger.info(line),
});
const shortcut = createShortcutBinding(globalShortcut, toggleWindow, (line) => logger.warn(line));
const quick = createQuickWindow({
  trust: (id, trusted) => (trusted ? ourContents.add(id) : ourContents.delete(id)),
});
const quickShortcut = createShortcutBinding(
  globalShortcut,
  () => quick.toggle(),
  (line) => logger.warn(line),
);

/** Applies the settings the shell owns, at start and after each change in Settings. */
function applyDesktopSettings(settings: AppSettings): void {
  settingsNow = settings;
  applyShellSettings(settings, { updates, shortcut, quickShortcut, app, log: logger });
}

function openWindow(): BrowserWindow {
  const stateFile = join(app.getPath('userData'), 'window-state.json');
  const window = createMainWindow(loadWindowState(stateFile, screen));
  mainWindow = window;
  rememberWindowState(window, stateFile);
  const id = window.webContents.id;
  ourContents.add(id);
  window.on('closed', () => {
    ourContents.delete(id);
    if (mainWindow === window) mainWindow = undefined;
  });
  // Closing keeps the app in the tray when the person chose so (macOS keeps it in the dock anyway).
  window.on('close', (event) => {
    if (!quitting && tray && settingsNow?.closeToTray) {
      event.preventDefault();
      window.hide();
    }
  });
  window.webContents.on('console-message', (event) => {
    const { level, message } = event as unknown as { level: string; message: string };
    if (level === 'warning' || level === 'error')
      rendererLogger[level === 'error' ? 'error' : 'warn'](message);
  });
  window.webContents.on('render-process-gone', (_event, details) =>
    rendererLogger.error(`The window's process ended (${details.reason}).`),
  );
  return window;
}

async function start(): Promise<void> {
  const userData = app.getPath('userData');
  // Accounts, sync state and the local service's data: shared with browser mode and the CLI.
  const dataDir = desktopDataDir(userData);
  // Everything the app writes for the person is theirs alone (profiles, sync state, the local service's data).
  usePrivateUmask();
  await makePrivateDataDir(userData);
  await makePrivateDataDir(dataDir);
  const rotating = openRotatingLog(join(userData, 'logs'));
  fileSink = rotating.sink;
  logFile = rotating.path;
  const showLogs = async () => {
    const problem = await shell.openPath(join(userData, 'logs'));
    if (problem) throw new Error(problem);
  };
  const secrets = await chooseDesktopSecretStore(safeStorage, {
    userDataDir: userData,
    platform: process.platform,
  });
  for (const skipped of secrets.skipped)
    logger.warn(`Secret store ${skipped.kind} not used: ${skipped.reason}`);

  // This launch's proof to its own service (docs/security.md): generated here, handed over in memory only.
  const launchSecret = randomBytes(32).toString('base64url');
  // The memory store's writer thread and the reader of a server's /openapi.yaml, built next to us
  // (electron.vite.config.ts).
  process.env['AGENTDESK_MEMORY_WRITER_JS'] ??= join(__dirname, 'memory-writer.js');
  process.env['AGENTDESK_EXTENSION_OPERATIONS_JS'] ??= join(__dirname, 'extension-operations.js');
  host = await createHost({
    dataDir,
    secrets: secrets.store,
    logger,
    // Electron's net.fetch follows the system proxy and certificate store.
    fetch: (input, init) => net.fetch(input instanceof URL ? input.href : input, init),
    settings: { onChange: applyDesktopSettings },
    startEmbeddedService: ({ dataDir, port = 0, guest }) => {
      // The service runs the demo agent from its prebuilt bundle (electron.vite.config.ts builds it next to us).
      process.env['AGENTDESK_DEMO_AGENT_JS'] ??= join(__dirname, 'demo-agent.js');
      process.env['AGENTDESK_MODEL_AGENT_JS'] ??= join(__dirname, 'model-agent.js');
      // The key sealing model providers' keys goes to the OS keychain, the one the CLI finds too.
      return startAppService({ dataDir, port, guest, launchSecret, ...keychainOf(secrets.store) });
    },
    openBrowser: async (url) => {
      if (!isSignInUrlAllowed(url))
        throw new Error('the sign-in address is neither https nor on this computer');
      await shell.openExternal(url);
    },
    os: desktopOs({ updates, logFile, showLogs, inbox, quick }),
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
        {
          openHelp: () => void shell.openExternal(HELP_URL),
          showLogs: () => void showLogs().catch((error: unknown) => logger.warn('No log folder.', error)),
        },
        { devTools: !app.isPackaged },
      ),
    ),
  );

  openWindow();
  const settings = await host.getSettings();
  if (settings.ok) applyDesktopSettings(settings.value);
  tray = startTray(host);
  updates.start();
  const launchLink = deepLinkInArgs(process.argv);
  if (launchLink) inbox.receive(launchLink);
}

function startTray(desk: DeskHost): AppTray | undefined {
  try {
    const icon = nativeImage.createFromPath(join(app.getAppPath(), 'resources', 'trayTemplate.png'));
    return createAppTray({
      tray: new Tray(icon),
      buildMenu: (template) => Menu.buildFromTemplate(template),
      host: desk,
      platform: process.platform,
      windowVisible: () => !!mainWindow?.isVisible(),
      run: (action) => {
        if (action.type === 'quit') app.quit();
        else if (action.type === 'toggle-window') toggleWindow();
        else if (action.type === 'new-conversation') inbox.send({ type: 'new-conversation' });
        else inbox.send({ type: 'open', place: { agentId: action.agentId } });
      },
    });
  } catch (error) {
    // Some Linux desktops have no tray; the app works without one (closing then quits as usual).
    logger.warn('No tray icon on this desktop.', error);
    return undefined;
  }
}

// Before the app is ready, or the scheme is not standard and secure.
protocol.registerSchemesAsPrivileged([...appSchemePrivileges]);

// agentdesk:// links open the app; from a development checkout Electron must be told which app to run.
if (process.defaultApp && process.argv[1])
  app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [resolve(process.argv[1])]);
else app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);

// One instance only: a second launch focuses the first window and hands it its link (Windows, Linux).
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', (_event, argv: string[] = []) => {
    showWindow();
    const link = deepLinkInArgs(argv);
    if (link) inbox.receive(link);
  });
  // macOS hands links over as an event, also before the app is ready.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    inbox.receive(url);
  });

  void app
    .whenReady()
    .then(start)
    .then(() => {
      app.on('activate', () => {
        if (!mainWindow) openWindow();
      });
    })
    .catch((error: unknown) => {
      logger.error('AgentDesk could not start.', error);
      app.quit();
    });

  app.on('will-quit', () => {
    globalShortcut.unregisterAll();
    tray?.destroy();
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Stop the embedded service and open streams before leaving.
  let stopped = false;
  app.on('before-quit', (event) => {
    quitting = true;
    if (stopped || !host) return;
    event.preventDefault();
    void host.close().finally(() => {
      stopped = true;
      app.quit();
    });
  });
}
