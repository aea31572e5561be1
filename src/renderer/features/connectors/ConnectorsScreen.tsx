import { useEffect, useState } from 'react';
import type { AccountConnector } from '../../../shared/api';
import { useConnectorsStore } from '../../stores/connectors-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorLine } from '../../ui/ErrorLine';

/** Why a connector cannot be used, in the person's words (the API only says it is not available). */
const unavailableWords =
  'Not available on this server: its operator has not set this provider up (AgentDesk needs the provider’s client credentials on the server).';

/** Connectors: connected or not, connect in the system browser, disconnect with confirmation. */
export function ConnectorsScreen() {
  const connectors = useConnectorsStore((s) => s.connectors);
  const status = useConnectorsStore((s) => s.status);
  const error = useConnectorsStore((s) => s.error);
  const waitingFor = useConnectorsStore((s) => s.waitingFor);
  const [confirming, setConfirming] = useState<AccountConnector | null>(null);
  const [problem, setProblem] = useState('');

  useEffect(() => {
    void useConnectorsStore.getState().load();
    // The provider's page opens in the browser; coming back to the window is when the list may have changed.
    const refresh = () => void useConnectorsStore.getState().load();
    window.addEventListener('focus', refresh);
    return () => window.removeEventListener('focus', refresh);
  }, []);

  return (
    <section className="screen" aria-label="Connectors">
      <header className="screen-header">
        <h2>Connectors</h2>
        <button type="button" className="small" onClick={() => void useConnectorsStore.getState().load()}>
          Refresh
        </button>
      </header>
      <div className="screen-body">
        <p className="muted">
          Connectors let your agents use your accounts at other services. Connecting opens the provider in
          your browser; come back here when it says you are connected.
        </p>
        {status === 'loading' ? <p className="muted">Loading…</p> : null}
        <ErrorLine text={error} />
        {status === 'ready' && connectors.length === 0 ? (
          <p className="muted">This server offers no connectors.</p>
        ) : null}
        {connectors.length > 0 ? (
          <ul className="card-list" aria-label="Connector list">
            {connectors.map((connector) => (
              <li key={connector.id} aria-label={connector.name}>
                <div className="card-main">
                  <span>{connector.name}</span>
                  {!connector.available ? (
                    <span className="muted small-text">{unavailableWords}</span>
                  ) : waitingFor === connector.id && !connector.connected ? (
                    <span className="muted small-text" role="status">
                      Finish in your browser, then come back to this window.
                    </span>
                  ) : null}
                </div>
                <span className={`pill ${connector.connected ? 'ok' : ''}`}>
                  {connector.connected ? 'Connected' : connector.available ? 'Not connected' : 'Unavailable'}
                </span>
                {connector.connected ? (
                  <button type="button" className="small" onClick={() => setConfirming(connector)}>
                    Disconnect
                  </button>
                ) : connector.available ? (
                  <button
                    type="button"
                    className="small primary"
                    onClick={() => void useConnectorsStore.getState().connect(connector.id).then(setProblem)}
                  >
                    Connect
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        <ErrorLine text={problem} />
      </div>
      {confirming ? (
        <ConfirmDialog
          title={`Disconnect ${confirming.name}?`}
          confirmLabel="Disconnect"
          danger
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const id = confirming.id;
            setConfirming(null);
            void useConnectorsStore.getState().disconnect(id).then(setProblem);
          }}
        >
          <p>Your agents lose access to it, and the access is revoked at the provider.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
