/**
 * Browser mode shows a finished reply's notification through the page's own Notification API, which
 * the browser allows only after the person says yes (and asks only on a click). The desktop app's
 * notifications are the OS's, so there this reports null and the Settings screen has nothing to ask.
 */
export type PageNotificationState = 'granted' | 'default' | 'denied' | 'unsupported';

let shownByThePage = false;

/** Browser mode's bridge calls this: its notifications are the page's. */
export function notifyThroughThePage(): void {
  shownByThePage = true;
}

/** Whether the page may show notifications, or null when they are not the page's to show. */
export function pageNotificationState(): PageNotificationState | null {
  if (!shownByThePage) return null;
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** Asks the browser (from a click); answers where that left things. */
export async function askForPageNotifications(): Promise<PageNotificationState> {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.requestPermission();
}

/** Shown only when the person allowed notifications for this page; never asks by itself. */
export function showPageNotification(title: string, body: string | undefined): void {
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
    new Notification(title, body === undefined ? {} : { body });
  }
}
