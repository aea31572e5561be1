import type { DeskBridge } from '../../shared/bridge';
import { BRIDGE_SOCKET_PATH } from '../../shared/bridge/wire';
import { notifyThroughThePage, showPageNotification } from './page-notifications';
import { createWebSocketBridge } from './websocket-bridge';

const KEY_STORAGE = 'agentdesk.bridgeKey';

/**
 * Reads the per-launch key from the page URL's `#key=` fragment (then removes
 * it from the address bar, keeping the rest such as `quick`), or from this
 * tab's session storage after a reload.
 */
export function takeBridgeKey(win: Window = window): string | undefined {
  const fragment = new URLSearchParams(win.location.hash.replace(/^#/, ''));
  const fromUrl = fragment.get('key');
  if (fromUrl) {
    try {
      win.sessionStorage.setItem(KEY_STORAGE, fromUrl);
    } catch {
      // Storage may be disabled; the key still works for this page load.
    }
    fragment.delete('key');
    const rest = fragment.toString().replace(/=(?=&|$)/g, '');
    win.history.replaceState(
      null,
      '',
      `${win.location.pathname}${win.location.search}${rest ? `#${rest}` : ''}`,
    );
    return fromUrl;
  }
  try {
    return win.sessionStorage.getItem(KEY_STORAGE) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Installs `window.desk` for browser mode when no preload provided one. */
export function installWebSocketBridge(win: Window = window): boolean {
  const target = win as Window & { desk?: DeskBridge };
  if (target.desk) return false;
  const key = takeBridgeKey(win);
  if (!key) return false;
  const scheme = win.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const { bridge } = createWebSocketBridge({
    url: `${scheme}//${win.location.host}${BRIDGE_SOCKET_PATH}`,
    key,
    openUrl: (url) => {
      if (!/^https?:\/\//i.test(url)) return;
      const opened = win.open(url, '_blank');
      if (opened) opened.opener = null;
    },
    notify: showPageNotification,
  });
  notifyThroughThePage();
  target.desk = bridge;
  return true;
}
