import { useState } from 'react';
import {
  askForPageNotifications,
  pageNotificationState,
  type PageNotificationState,
} from '../../bridge/page-notifications';
import { useSettingsStore } from '../../stores/settings-store';

const blocked: Record<Exclude<PageNotificationState, 'granted' | 'default'>, string> = {
  denied:
    'This browser blocks notifications for this page. Allow them in its site settings, then tick the box.',
  unsupported: 'This browser cannot show notifications.',
};

/**
 * The box is ticked only when a notification would really show: in browser mode that needs the
 * browser's permission too, which ticking the box asks for.
 */
export function NotificationsSettings() {
  const wanted = useSettingsStore((s) => s.settings.notifications);
  const update = useSettingsStore.getState().update;
  const [page, setPage] = useState(pageNotificationState);
  const allowed = page === null || page === 'granted';
  const reason = page === 'denied' || page === 'unsupported' ? blocked[page] : '';

  const change = async (on: boolean) => {
    if (on && page === 'default') {
      const answer = await askForPageNotifications();
      setPage(answer);
      if (answer !== 'granted') return;
    }
    await update({ notifications: on });
  };

  return (
    <>
      <label className="settings-row">
        <input
          type="checkbox"
          checked={wanted && allowed}
          disabled={!!reason}
          aria-describedby={reason ? 'notifications-blocked' : undefined}
          onChange={(e) => void change(e.target.checked)}
        />
        Notify me when a reply finishes while AgentDesk is in the background
      </label>
      {reason ? (
        <p
          id="notifications-blocked"
          className="muted small-text"
          role="note"
          aria-label="Browser notifications"
        >
          {reason}
        </p>
      ) : page === 'default' ? (
        <p className="muted small-text" role="note" aria-label="Browser notifications">
          Ticking the box asks this browser to allow AgentDesk’s notifications.
        </p>
      ) : null}
    </>
  );
}
