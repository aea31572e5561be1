import { useEffect } from 'react';
import { useConnectivityStore } from '../../stores/connectivity-store';

/** Says plainly that the app is offline and what still works; gone by itself when the server is back. */
export function OfflineBanner(props: { readOnly?: boolean }) {
  const online = useConnectivityStore((s) => s.online);
  const reason = useConnectivityStore((s) => s.reason);
  useEffect(() => useConnectivityStore.getState().watch(), []);
  if (online && !props.readOnly) return null;
  return (
    <p className="banner offline-banner" role="status" aria-label="Offline">
      <strong>Offline</strong> — reading the copy stored on this computer; sending is off until the server is
      back.
      {reason ? <span className="muted"> {reason}</span> : null}
    </p>
  );
}
