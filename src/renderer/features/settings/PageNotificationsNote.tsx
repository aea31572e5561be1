import { useState } from 'react';
import {
  askForPageNotifications,
  pageNotificationState,
  type PageNotificationState,
} from '../../bridge/page-notifications';

const words: Record<Exclude<PageNotificationState, 'granted'>, string> = {
  default: 'This browser shows AgentDesk’s notifications only once you allow them.',
  denied: 'This browser blocks notifications for this page. Allow them in its site settings to be notified.',
  unsupported: 'This browser cannot show notifications.',
};

/** Browser mode only: what the browser lets the page show, and the click that asks it. */
export function PageNotificationsNote() {
  const [state, setState] = useState(pageNotificationState);
  if (state === null || state === 'granted') return null;
  return (
    <p className="muted small-text" role="note" aria-label="Browser notifications">
      {words[state]}{' '}
      {state === 'default' ? (
        <button type="button" onClick={() => void askForPageNotifications().then(setState)}>
          Allow notifications
        </button>
      ) : null}
    </p>
  );
}
