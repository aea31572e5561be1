import { join } from 'node:path';
import { BrowserWindow } from 'electron';
import { lockNavigation, rendererPage } from './window';
import { hardenedWindowOptions } from './window-options';

/** The quick chat's size: room for a question and the start of its answer, over whatever is in front. */
export const QUICK_WINDOW = { width: 560, height: 480, minWidth: 360, minHeight: 260 };

export interface QuickWindow {
  /** The global shortcut: opens the window (a new conversation each time), or closes it when in front. */
  toggle(): void;
  /** Escape in its page, or "Open in AgentDesk" (the main window then shows the conversation). */
  close(): void;
}

/**
 * A small window on top of every other, showing the app's page at `#quick` (the renderer's QuickChat; the
 * same page browser mode tests). Made fresh each time, so it always starts a new conversation; Escape in
 * the page closes it. `trust` lets the bridge accept the window's calls while it lives.
 */
export function createQuickWindow(deps: { trust(id: number, trusted: boolean): void }): QuickWindow {
  let current: BrowserWindow | undefined;
  const open = () => {
    const window = new BrowserWindow({
      ...hardenedWindowOptions(join(__dirname, '../preload/index.cjs')),
      ...QUICK_WINDOW,
      title: 'Quick chat',
      alwaysOnTop: true,
      skipTaskbar: true,
      center: true,
      minimizable: false,
      maximizable: false,
      fullscreenable: false,
    });
    const id = window.webContents.id;
    deps.trust(id, true);
    window.on('closed', () => {
      deps.trust(id, false);
      if (current === window) current = undefined;
    });
    lockNavigation(window);
    window.once('ready-to-show', () => {
      window.show();
      window.focus();
    });
    void window.loadURL(rendererPage('#quick'));
    current = window;
  };
  return {
    toggle() {
      if (!current) return open();
      if (current.isVisible() && current.isFocused()) return current.close();
      current.show();
      current.focus();
    },
    close() {
      current?.close();
    },
  };
}
