import { beforeEach, describe, expect, it, vi } from 'vitest';

// The Electron binary cannot run here, so `electron` is mocked: these tests check
// the options and handlers the main process hands to it.
const created: {
  options: Record<string, unknown>;
  handlers: Record<string, (...args: unknown[]) => void>;
  openHandler?: (details: { url: string }) => unknown;
}[] = [];
const openExternal = vi.fn(async () => undefined);
let headerHook:
  ((details: { responseHeaders: Record<string, string[]> }, cb: (r: unknown) => void) => void) | undefined;

vi.mock('electron', () => {
  class BrowserWindow {
    webContents: Record<string, unknown>;
    constructor(options: Record<string, unknown>) {
      const entry: (typeof created)[number] = { options, handlers: {} };
      created.push(entry);
      this.webContents = {
        setWindowOpenHandler: (fn: (details: { url: string }) => unknown) => (entry.openHandler = fn),
        on: (event: string, fn: (...args: unknown[]) => void) => (entry.handlers[event] = fn),
      };
    }
    once() {}
    loadFile() {
      return Promise.resolve();
    }
    loadURL() {
      return Promise.resolve();
    }
  }
  return {
    BrowserWindow,
    shell: { openExternal },
    session: {
      defaultSession: { webRequest: { onHeadersReceived: (fn: typeof headerHook) => (headerHook = fn) } },
    },
  };
});

const { createMainWindow } = await import('../../../src/main/window');
const { contentSecurityPolicy } = await import('../../../src/main/window-options');

describe('main window', () => {
  beforeEach(() => {
    created.length = 0;
    openExternal.mockClear();
    createMainWindow();
  });

  it('isolates the renderer from Node and Electron', () => {
    const prefs = created[0]!.options['webPreferences'] as Record<string, unknown>;
    expect(prefs['contextIsolation']).toBe(true);
    expect(prefs['sandbox']).toBe(true);
    expect(prefs['nodeIntegration']).toBe(false);
    expect(prefs['webviewTag']).toBe(false);
    expect(prefs['webSecurity']).toBe(true);
    expect(String(prefs['preload'])).toMatch(/preload[\\/]index\.cjs$/);
  });

  it('adds a strict CSP to every response', () => {
    let result: { responseHeaders: Record<string, string[]> } | undefined;
    headerHook!({ responseHeaders: { 'x-other': ['1'] } }, (r) => (result = r as typeof result));
    expect(result!.responseHeaders['Content-Security-Policy']).toEqual([contentSecurityPolicy]);
    expect(result!.responseHeaders['x-other']).toEqual(['1']);
    expect(contentSecurityPolicy).toContain("default-src 'self'");
    expect(contentSecurityPolicy).toContain("script-src 'self'");
    expect(contentSecurityPolicy).not.toMatch(/script-src[^;]*unsafe-(inline|eval)/);
    expect(contentSecurityPolicy).toContain("object-src 'none'");
    expect(contentSecurityPolicy).toContain("worker-src 'self'");
  });

  it('locks navigation', () => {
    const event = { preventDefault: vi.fn() };
    created[0]!.handlers['will-navigate']!(event, 'https://example.org');
    created[0]!.handlers['will-redirect']!(event, 'https://example.org');
    expect(event.preventDefault).toHaveBeenCalledTimes(2);
  });

  it('sends only https links to the system browser and opens no window', () => {
    const open = created[0]!.openHandler!;
    expect(open({ url: 'https://example.org/docs' })).toEqual({ action: 'deny' });
    expect(open({ url: 'http://example.org/' })).toEqual({ action: 'deny' });
    expect(open({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(open({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledTimes(1);
    expect(openExternal).toHaveBeenCalledWith('https://example.org/docs');
  });
});

describe('what electronegativity asks of the shell', () => {
  it('turns off middle-click (auxclick) opening links in new windows', () => {
    createMainWindow();
    const prefs = created.at(-1)!.options['webPreferences'] as Record<string, unknown>;
    expect(prefs['disableBlinkFeatures']).toBe('Auxclick');
  });

  it('opens a sign-in page only over https, or http on this computer', async () => {
    const { isSignInUrlAllowed } = await import('../../../src/main/window-options');
    expect(isSignInUrlAllowed('https://agents.example/oauth2/authorize?x=1')).toBe(true);
    expect(isSignInUrlAllowed('http://127.0.0.1:8787/oauth2/authorize')).toBe(true);
    expect(isSignInUrlAllowed('http://localhost:8787/oauth2/authorize')).toBe(true);
    for (const url of [
      'http://agents.example/',
      'file:///etc/passwd',
      'smb://host/share',
      'javascript:1',
      'x',
    ]) {
      expect(isSignInUrlAllowed(url), url).toBe(false);
    }
  });
});
