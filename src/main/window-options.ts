import type { BrowserWindowConstructorOptions } from 'electron';
import { rendererCsp } from '../core/renderer-csp';

/** The renderer's Content-Security-Policy (core/renderer-csp.ts, shared with browser mode). */
export const contentSecurityPolicy = rendererCsp();

/** Window options that keep the renderer isolated from Node and Electron. */
export function hardenedWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'AgentDesk',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      // A middle click on a link would open it in a new Electron window (electronegativity AUXCLICK).
      disableBlinkFeatures: 'Auxclick',
      spellcheck: true,
    },
  };
}

/** Only https links may leave the app, and they go to the system browser. */
export function isExternalLinkAllowed(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The sign-in page may be opened in the system browser: https anywhere, or plain http only on this computer
 * (the local service). Any other scheme (file:, smb:, a custom handler) from a hostile server is refused.
 */
export function isSignInUrlAllowed(url: string): boolean {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'https:') return true;
    return parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  } catch {
    return false;
  }
}
