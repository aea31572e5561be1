import type { NotificationInput, PlatformInfo, PlatformMethods } from '../../../shared/bridge';
import { isHttpsUrl } from '../plumbing/argument-checks';
import { fail } from '../plumbing/call-results';

/** What the platform area needs of the OS; each program provides it. */
export interface PlatformOs {
  platform: PlatformInfo;
  notify(notification: NotificationInput): void | Promise<void>;
  /** Opens a link in the system browser (the host checks it first: https, or http to this computer). */
  openExternal(url: string): void | Promise<void>;
}

/** The platform area: notifications, links in the system browser, which OS this is. */
export function createPlatformArea(os: PlatformOs): PlatformMethods {
  return {
    async notify(notification) {
      if (typeof notification?.title !== 'string')
        return fail('invalid_argument', 'A notification needs a title.');
      await os.notify({
        title: notification.title.slice(0, 200),
        ...(typeof notification.body === 'string' ? { body: notification.body.slice(0, 1000) } : {}),
      });
      return { ok: true, value: undefined };
    },

    async openExternal(url) {
      if (!isOpenableUrl(url))
        return fail('invalid_argument', 'Only https links, or http links to this computer, can be opened.');
      await os.openExternal(url);
      return { ok: true, value: undefined };
    },

    async getPlatform() {
      return { ok: true, value: os.platform };
    },
  };
}

/** https anywhere; plain http only to this computer (the local service's pages and signed file links). */
function isOpenableUrl(url: unknown): url is string {
  if (isHttpsUrl(url)) return true;
  try {
    const parsed = new URL(String(url));
    return parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  } catch {
    return false;
  }
}
