import type { IpcMainInvokeEvent } from 'electron';

export interface SenderCheckOptions {
  /** The webContents ids of our own windows. */
  trustedContentsIds(): Iterable<number>;
  /** Where our renderer is loaded from: the built index.html file URL, or the dev server URL. */
  rendererUrl: string;
}

/**
 * Accepts an IPC call only from the top frame of one of our windows, showing
 * our own renderer (the built file, or the dev server's origin). Anything
 * else, e.g. a page that got navigated or an iframe, is refused.
 */
export function createSenderCheck(options: SenderCheckOptions): (event: IpcMainInvokeEvent) => boolean {
  const expected = new URL(options.rendererUrl);
  return (event) => {
    if (![...options.trustedContentsIds()].includes(event.sender.id)) return false;
    const frame = event.senderFrame;
    if (!frame || frame.parent !== null) return false;
    let url: URL;
    try {
      url = new URL(frame.url);
    } catch {
      return false;
    }
    if (expected.protocol === 'file:') return url.protocol === 'file:' && url.pathname === expected.pathname;
    // Scheme and host, not `origin`: Node gives every custom-scheme URL (agentdesk://app) the origin "null".
    return url.protocol === expected.protocol && url.host === expected.host;
  };
}
