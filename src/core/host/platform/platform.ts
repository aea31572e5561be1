import type { NotificationInput, PlatformInfo, PlatformMethods } from '../../../shared/bridge';
import { isHttpsUrl } from '../plumbing/argument-checks';
import { fail } from '../plumbing/call-results';

/** What the platform area needs of the OS; each program provides it. */
export interface PlatformOs {
  platform: PlatformInfo;
  notify(notification: NotificationInput): void | Promise<void>;
  /** Opens an https link in the system browser (the host checks the scheme first). */
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
      if (!isHttpsUrl(url)) return fail('invalid_argument', 'Only https links can be opened.');
      await os.openExternal(url);
      return { ok: true, value: undefined };
    },

    async getPlatform() {
      return { ok: true, value: os.platform };
    },
  };
}
