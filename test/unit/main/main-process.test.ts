import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { BASIC_TEXT_WARNING } from '../../../src/main/secret-stores';
import { bridgeMethodNames } from '../../../src/shared/bridge';

// The Electron binary cannot run here, so `electron` (its window, tray, screen, global shortcuts and
// login items too) and `electron-updater` are mocked, and so is
// `@napi-rs/keyring` (there is no OS keychain on a test machine: every keychain call fails, as it
// does on a Linux box without Secret Service). The main process is then loaded for real.
const userData = await mkdtemp(join(tmpdir(), 'agentdesk-main-'));
type Handler = (event: unknown, ...args: unknown[]) => unknown;
const m = vi.hoisted(() => ({
  handlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
  appEvents: new Map<string, (...args: unknown[]) => void>(),
  windows: [] as {
    webContents: { id: number };
    show: ReturnType<typeof vi.fn>;
    hide: ReturnType<typeof vi.fn>;
    events: Map<string, (...args: unknown[]) => void>;
    focus: ReturnType<typeof vi.fn>;
    restore: ReturnType<typeof vi.fn>;
    close: () => void;
    minimized: boolean;
    focused: boolean;
    url: string;
    options: Record<string, unknown>;
  }[],
  menu: undefined as unknown,
  checkForUpdates: vi.fn(async () => undefined),
  updaterEvents: new Map<string, (...args: unknown[]) => void>(),
  quitAndInstall: vi.fn(),
  shortcuts: new Map<string, () => void>(),
  trayMenus: [] as unknown[],
  protocolClients: [] as unknown[][],
  loginItems: [] as unknown[],
  ready: undefined as undefined | (() => void),
  userData: '',
  showOpenDialog: vi.fn(async (..._args: unknown[]) => ({
    canceled: false,
    filePaths: ['/home/ana/Agents/Helper'],
  })),
  openPath: vi.fn(async (_path: string) => ''),
  privileged: undefined as unknown,
  protocols: new Map<string, (request: Request) => Promise<Response>>(),
  permissionRequest: undefined as unknown,
  permissionCheck: undefined as unknown,
}));
m.userData = userData;
// desktopDataDir follows $AGENTDESK_DATA: the app's accounts and service in this test's folder, not the home's.
process.env['AGENTDESK_DATA'] = userData;

vi.mock('@napi-rs/keyring', () => ({
  AsyncEntry: class {
    async getPassword(): Promise<string> {
      throw new Error('no keychain here');
    }
    async setPassword(): Promise<void> {
      throw new Error('no keychain here');
    }
    async deletePassword(): Promise<boolean> {
      throw new Error('no keychain here');
    }
  },
}));

vi.mock('electron-updater', () => ({
  default: {
    autoUpdater: {
      checkForUpdates: m.checkForUpdates,
      quitAndInstall: m.quitAndInstall,
      on: (event: string, fn: (...args: unknown[]) => void) => m.updaterEvents.set(event, fn),
    },
  },
}));

vi.mock('electron', () => {
  let nextId = 1;
  class BrowserWindow {
    webContents: Record<string, unknown> & { id: number };
    focus = vi.fn();
    restore = vi.fn();
    show = vi.fn();
    hide = vi.fn();
    events = new Map<string, (...args: unknown[]) => void>();
    minimized = true;
    focused = false;
    url = '';
    close = vi.fn((): void => this.events.get('closed')?.());
    constructor(public options: Record<string, unknown> = {}) {
      this.webContents = { id: nextId++, setWindowOpenHandler: () => {}, on: () => {} };
      m.windows.push(this as never);
    }
    static getAllWindows() {
      return m.windows;
    }
    static getFocusedWindow() {
      return m.windows[0] ?? null;
    }
    on(event: string, fn: (...args: unknown[]) => void) {
      this.events.set(event, fn);
    }
    once() {}
    isVisible() {
      return true;
    }
    isFocused() {
      return this.focused;
    }
    isMinimized() {
      return this.minimized;
    }
    loadFile() {
      return Promise.resolve();
    }
    loadURL(url: string) {
      this.url = url;
      return Promise.resolve();
    }
  }
  return {
    app: {
      name: 'AgentDesk',
      isPackaged: false,
      requestSingleInstanceLock: () => true,
      isReady: () => !!m.windows.length,
      getAppPath: () => m.userData,
      setAsDefaultProtocolClient: (...args: unknown[]) => m.protocolClients.push(args),
      setLoginItemSettings: (item: unknown) => m.loginItems.push(item),
      quit: vi.fn(),
      on: (event: string, fn: (...args: unknown[]) => void) => m.appEvents.set(event, fn),
      getPath: () => m.userData,
      whenReady: () => new Promise<void>((r) => (m.ready = r)),
    },
    BrowserWindow,
    globalShortcut: {
      register: (accelerator: string, fn: () => void) => (m.shortcuts.set(accelerator, fn), true),
      unregister: (accelerator: string) => m.shortcuts.delete(accelerator),
      unregisterAll: () => m.shortcuts.clear(),
    },
    nativeImage: { createFromPath: (path: string) => ({ path }) },
    screen: {
      getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
      getPrimaryDisplay: () => ({ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }),
    },
    Tray: class {
      setContextMenu(menu: unknown) {
        m.trayMenus.push(menu);
      }
      setToolTip() {}
      on() {}
      destroy() {}
    },
    ipcMain: {
      handle: (channel: string, fn: Handler) => m.handlers.set(channel, fn),
      removeHandler: (channel: string) => m.handlers.delete(channel),
    },
    Menu: {
      buildFromTemplate: (template: unknown) => ({ template }),
      setApplicationMenu: (menu: unknown) => (m.menu = menu),
    },
    net: { fetch: (...args: Parameters<typeof fetch>) => fetch(...args) },
    Notification: class {
      static isSupported() {
        return false;
      }
      show() {}
    },
    safeStorage: {
      isAsyncEncryptionAvailable: async () => true,
      getSelectedStorageBackend: () => 'basic_text',
      encryptStringAsync: async (plain: string) => Buffer.from(plain, 'utf8').reverse(),
      decryptStringAsync: async (data: Buffer) => ({
        result: Buffer.from(data).reverse().toString('utf8'),
        shouldReEncrypt: false,
      }),
    },
    shell: { openExternal: vi.fn(async () => undefined), openPath: m.openPath },
    dialog: { showOpenDialog: m.showOpenDialog },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown) => (m.privileged = schemes),
      handle: (scheme: string, fn: (request: Request) => Promise<Response>) => m.protocols.set(scheme, fn),
    },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: () => {} },
        setPermissionRequestHandler: (fn: unknown) => (m.permissionRequest = fn),
        setPermissionCheckHandler: (fn: unknown) => (m.permissionCheck = fn),
      },
    },
  };
});

await import('../../../src/main/index');
m.ready!();
await vi.waitFor(() => expect(m.windows).toHaveLength(1), { timeout: 10_000 });

afterAll(async () => {
  await rm(userData, { recursive: true, force: true });
});

const rendererUrl = 'agentdesk://app/index.html';
const fromOurWindow = () => ({
  sender: m.windows[0]!.webContents,
  senderFrame: { url: rendererUrl, parent: null },
});

describe('main process start-up', () => {
  it('wires one IPC handler per bridge method before opening the window', () => {
    for (const name of bridgeMethodNames) {
      const channel = name.startsWith('on') ? `desk:${name}:subscribe` : `desk:${name}`;
      expect(m.handlers.has(channel), channel).toBe(true);
    }
  });

  it('answers our window and refuses another page', async () => {
    const own = (await m.handlers.get('desk:getPlatform')!(fromOurWindow())) as {
      ok: boolean;
      value: unknown;
    };
    expect(own).toEqual({ ok: true, value: { os: 'linux', shell: 'electron', modifierKey: 'Ctrl' } });
    const stranger = await m.handlers.get('desk:getPlatform')!({
      sender: { id: 99 },
      senderFrame: { url: 'https://evil.example/', parent: null },
    });
    expect(stranger).toMatchObject({ ok: false, error: { code: 'bridge_unavailable' } });
  });

  it('picks a sync folder with the system dialog (folders only, new ones allowed)', async () => {
    const picked = await m.handlers.get('desk:pickSyncFolder')!(fromOurWindow(), '/home/ana/AgentDesk');
    expect(picked).toEqual({ ok: true, value: '/home/ana/Agents/Helper' });
    const options = m.showOpenDialog.mock.calls.at(-1)!.at(-1) as {
      properties: string[];
      defaultPath: string;
    };
    expect(options.properties).toEqual(['openDirectory', 'createDirectory']);
    expect(options.defaultPath).toBe('/home/ana/AgentDesk');
    // Parented to our window, so the dialog is modal to it.
    expect(m.showOpenDialog.mock.calls.at(-1)![0]).toBe(m.windows[0]);

    m.showOpenDialog.mockResolvedValueOnce({ canceled: true, filePaths: [] });
    expect(await m.handlers.get('desk:pickSyncFolder')!(fromOurWindow())).toEqual({ ok: true, value: null });
  });

  it('falls back to safeStorage with the visible basic_text warning when no keychain works', async () => {
    const session = (await m.handlers.get('desk:getSession')!(fromOurWindow())) as {
      value: { secretStore: { kind: string; warning?: string } };
    };
    expect(session.value.secretStore).toEqual({ kind: 'safe-storage', warning: BASIC_TEXT_WARNING });
  });

  it('sets a menu, does not check for updates when not packaged, and focuses on a second launch', () => {
    expect(m.menu).toBeDefined();
    expect(m.checkForUpdates).not.toHaveBeenCalled();
    m.appEvents.get('second-instance')!();
    expect(m.windows[0]!.restore).toHaveBeenCalled();
    expect(m.windows[0]!.focus).toHaveBeenCalled();
  });
});

describe('the shell grants only what the app needs', () => {
  type RequestHandler = (
    contents: unknown,
    permission: string,
    callback: (granted: boolean) => void,
    details: { requestingUrl: string; mediaTypes?: string[] },
  ) => void;
  type CheckHandler = (
    contents: unknown,
    permission: string,
    origin: string,
    details: { mediaType?: string },
  ) => boolean;

  const ask = (permission: string, url: string, mediaTypes?: string[]) => {
    let granted: boolean | undefined;
    (m.permissionRequest as RequestHandler)(null, permission, (g) => (granted = g), {
      requestingUrl: url,
      ...(mediaTypes ? { mediaTypes } : {}),
    });
    return granted;
  };

  it('serves the app from its own standard, secure scheme', () => {
    expect(m.privileged).toEqual([
      expect.objectContaining({
        scheme: 'agentdesk',
        privileges: expect.objectContaining({ standard: true, secure: true }),
      }),
    ]);
    expect(m.protocols.has('agentdesk')).toBe(true);
  });

  it('grants the microphone to the app page, and nothing else to anyone', () => {
    expect(ask('media', 'agentdesk://app/index.html', ['audio'])).toBe(true);
    expect(ask('media', 'agentdesk://app/index.html', ['video'])).toBe(false);
    expect(ask('media', 'agentdesk://app/index.html', ['audio', 'video'])).toBe(false);
    expect(ask('media', 'agentdesk://app/index.html', [])).toBe(false);
    expect(ask('media', 'https://evil.example/', ['audio'])).toBe(false);
    expect(ask('media', 'file:///tmp/page.html', ['audio'])).toBe(false);
    for (const other of ['notifications', 'geolocation', 'clipboard-read', 'display-capture', 'midiSysex']) {
      expect(ask(other, 'agentdesk://app/index.html'), other).toBe(false);
    }
    const check = m.permissionCheck as CheckHandler;
    expect(check(null, 'media', 'agentdesk://app', { mediaType: 'audio' })).toBe(true);
    expect(check(null, 'media', 'agentdesk://app', { mediaType: 'video' })).toBe(false);
    expect(check(null, 'media', 'https://evil.example', { mediaType: 'audio' })).toBe(false);
    expect(check(null, 'notifications', 'agentdesk://app', {})).toBe(false);
  });

  it('answers IPC only from the app scheme page, not from another scheme or host', async () => {
    const call = async (url: string) =>
      (await m.handlers.get('desk:getSession')!({
        sender: m.windows[0]!.webContents,
        senderFrame: { url, parent: null },
      })) as { ok: boolean };
    for (const url of ['agentdesk://evil/index.html', 'other://app/index.html', 'file:///tmp/index.html']) {
      expect((await call(url)).ok, url).toBe(false);
    }
    expect((await call('agentdesk://app/index.html')).ok).toBe(true);
  });
});

describe('desktop habits', () => {
  const sent: unknown[][] = [];
  const sender = () =>
    Object.assign(m.windows[0]!.webContents, {
      isDestroyed: () => false,
      send: (...args: unknown[]) => sent.push(args),
      once: () => {},
    });

  it('registers agentdesk:// and hands a second launch link, and only a valid one, to the window', async () => {
    expect(m.protocolClients.at(-1)?.[0]).toBe('agentdesk');
    await m.handlers.get('desk:onShellCommand:subscribe')!(
      { sender: sender(), senderFrame: { url: rendererUrl, parent: null } },
      7,
    );
    m.appEvents.get('second-instance')!({}, [
      '/opt/AgentDesk/agentdesk',
      'agentdesk://agent/a1/conversation/s1',
    ]);
    m.appEvents.get('second-instance')!({}, ['/opt/AgentDesk/agentdesk', 'agentdesk://agent/../../etc']);
    m.appEvents.get('open-url')!({ preventDefault: () => {} }, 'agentdesk://agent/a2');
    const commands = sent.filter((args) => args[1] === 7).map((args) => args[2]);
    expect(commands).toEqual([
      { type: 'open', place: { agentId: 'a1', sessionId: 's1' } },
      { type: 'open', place: { agentId: 'a2' } },
    ]);
  });

  it('opens the quick chat window on its shortcut: on top, the page at #quick, trusted while it lives', async () => {
    await vi.waitFor(() => expect(m.shortcuts.has('Alt+Space')).toBe(true));
    m.shortcuts.get('Alt+Space')!();
    expect(m.windows).toHaveLength(2);
    const quick = m.windows[1]!;
    expect(quick.url).toBe('agentdesk://app/index.html#quick');
    expect(quick.options).toMatchObject({ alwaysOnTop: true, skipTaskbar: true, width: 560, height: 480 });
    expect((quick.options['webPreferences'] as Record<string, unknown>)['sandbox']).toBe(true);
    const fromQuick = {
      sender: quick.webContents,
      senderFrame: { url: `${rendererUrl}#quick`, parent: null },
    };
    expect(await m.handlers.get('desk:getSettings')!(fromQuick)).toMatchObject({ ok: true });
    // In front, the shortcut closes it; its page is no longer trusted, and the main window is still the app's.
    quick.focused = true;
    m.shortcuts.get('Alt+Space')!();
    expect(m.windows[1]!.close).toHaveBeenCalled();
    expect(await m.handlers.get('desk:getSettings')!(fromQuick)).toMatchObject({ ok: false });
    m.windows.splice(1);
    m.shortcuts.get('Alt+Space')!();
    expect(m.windows[1]!.url).toBe('agentdesk://app/index.html#quick');
    m.windows[1]!.close();
    m.windows.splice(1);
  });

  it('closes the quick window when its page asks (Escape), and shows its conversation in the main window', async () => {
    m.shortcuts.get('Alt+Space')!();
    const quick = m.windows[1]!;
    const fromQuick = {
      sender: quick.webContents,
      senderFrame: { url: `${rendererUrl}#quick`, parent: null },
    };
    expect(await m.handlers.get('desk:closeQuick')!(fromQuick)).toEqual({ ok: true, value: undefined });
    expect(quick.close).toHaveBeenCalledTimes(1);
    m.windows.splice(1);
    // "Open in AgentDesk": closed, and the main window (subscribed above) is told to open the conversation.
    m.shortcuts.get('Alt+Space')!();
    const again = m.windows[1]!;
    const before = sent.length;
    const fromAgain = {
      sender: again.webContents,
      senderFrame: { url: `${rendererUrl}#quick`, parent: null },
    };
    const place = { agentId: 'a1', sessionId: 's9' };
    expect(await m.handlers.get('desk:closeQuick')!(fromAgain, place)).toEqual({
      ok: true,
      value: undefined,
    });
    expect(again.close).toHaveBeenCalledTimes(1);
    expect(sent.slice(before).map((args) => args[2])).toEqual([{ type: 'open', place }]);
    m.windows.splice(1);
  });

  it('applies the settings it owns: the global shortcuts, changed or off, and open at login', async () => {
    await vi.waitFor(() => expect(m.shortcuts.has('CommandOrControl+Shift+Space')).toBe(true));
    await m.handlers.get('desk:updateSettings')!(fromOurWindow(), { globalShortcut: 'Alt+Shift+K' });
    expect([...m.shortcuts.keys()].sort()).toEqual(['Alt+Shift+K', 'Alt+Space']);
    await m.handlers.get('desk:updateSettings')!(fromOurWindow(), {
      globalShortcut: null,
      quickChatShortcut: 'Control+Alt+Q',
    });
    expect([...m.shortcuts.keys()]).toEqual(['Control+Alt+Q']);
    await m.handlers.get('desk:updateSettings')!(fromOurWindow(), { quickChatShortcut: null });
    expect(m.shortcuts.size).toBe(0);
    // Linux keeps login items as an autostart desktop entry; the settings call writes or removes it.
    process.env['XDG_CONFIG_HOME'] = join(userData, 'config');
    await m.handlers.get('desk:updateSettings')!(fromOurWindow(), { openAtLogin: true });
    await vi.waitFor(async () =>
      expect(await readFile(join(userData, 'config', 'autostart', 'agentdesk.desktop'), 'utf8')).toContain(
        'Exec=',
      ),
    );
  });

  it('keeps the window in the tray on close when chosen, and quits as usual otherwise', async () => {
    expect(m.trayMenus.length).toBeGreaterThan(0);
    const close = m.windows[0]!.events.get('close')!;
    const event = { preventDefault: vi.fn() };
    close(event);
    expect(event.preventDefault).not.toHaveBeenCalled();
    await m.handlers.get('desk:updateSettings')!(fromOurWindow(), { closeToTray: true });
    close(event);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(m.windows[0]!.hide).toHaveBeenCalled();
  });

  it('writes to a log file in the data folder, tokens redacted, and says where it is', async () => {
    const info = (await m.handlers.get('desk:getShellInfo')!(fromOurWindow())) as {
      value: { logFile: string; tray: boolean; updates: boolean };
    };
    expect(info.value).toMatchObject({
      tray: true,
      updates: true,
      logFile: join(userData, 'logs', 'agentdesk.log'),
    });
    m.appEvents.get('second-instance')!({}, ['x', 'agentdesk://agent/x?access_token=supersecretvalue']);
    const log = await readFile(info.value.logFile, 'utf8');
    expect(log).toContain('Ignored a link that is not an AgentDesk place');
    expect(log).not.toContain('supersecretvalue');
  });
});
