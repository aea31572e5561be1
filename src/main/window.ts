import { join } from 'node:path';
import { BrowserWindow, session, shell } from 'electron';
import { APP_INDEX_URL } from './app-protocol';
import { contentSecurityPolicy, hardenedWindowOptions, isExternalLinkAllowed } from './window-options';
import type { WindowState } from './window-state';

/** Opens the main window where it was last (see window-state.ts), with navigation locked and a strict CSP. */
export function createMainWindow(place?: WindowState): BrowserWindow {
  const window = new BrowserWindow({
    ...hardenedWindowOptions(join(__dirname, '../preload/index.cjs')),
    ...(place ? place.bounds : {}),
  });

  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [contentSecurityPolicy],
      },
    });
  });

  lockNavigation(window);

  window.once('ready-to-show', () => {
    if (place?.maximized) window.maximize();
    window.show();
  });

  void window.loadURL(rendererPage());
  return window;
}

/** The app's page (the dev server's while developing), at a hash route such as `#quick`. */
export function rendererPage(hash = ''): string {
  return `${process.env['ELECTRON_RENDERER_URL'] ?? APP_INDEX_URL}${hash}`;
}

/** Links leave for the system browser (https only); the page itself never navigates away from the app. */
export function lockNavigation(window: BrowserWindow): void {
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isExternalLinkAllowed(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.on('will-redirect', (event) => event.preventDefault());
}
