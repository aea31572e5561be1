import './sign-in.css';
import { useState, type FormEvent } from 'react';
import { useSessionStore } from '../../stores/session-store';
import { SignInWaiting } from './SignInWaiting';

/**
 * First screen: where the agents are. "This computer" needs nothing more (the app's own service trusts it);
 * "Another server" signs in through the browser.
 */
export function SignInScreen() {
  const session = useSessionStore((s) => s.session);
  const busy = useSessionStore((s) => s.busy);
  const error = useSessionStore((s) => s.error);
  const { signInHere, signInCustom, cancelSignIn } = useSessionStore.getState();
  const [where, setWhere] = useState<'local' | 'custom'>('local');
  const [baseUrl, setBaseUrl] = useState('https://');
  const [clientId, setClientId] = useState('');
  const [ports, setPorts] = useState('');
  const [formError, setFormError] = useState('');

  const progress = session?.status === 'signing-in' ? session.signIn : undefined;
  const reason = session?.signedOutReason?.message;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError('');
    if (where === 'local') return void signInHere();
    let url: URL;
    try {
      url = new URL(baseUrl.trim());
    } catch {
      return setFormError('Enter the server address, for example https://agents.example.com.');
    }
    if (url.protocol !== 'https:' && url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
      return setFormError(
        'The server address must start with https:// (plain http is only allowed on this computer).',
      );
    }
    if (!clientId.trim()) return setFormError('Enter the client id the server operator gave you.');
    const loopbackPorts = ports
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    if (loopbackPorts.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
      return setFormError('Ports must be whole numbers between 1 and 65535, separated by commas.');
    }
    void signInCustom({
      baseUrl: url.toString().replace(/\/$/, ''),
      clientId: clientId.trim(),
      loopbackPorts,
    });
  };

  if (busy || progress) {
    const waitingWhere = progress && session?.profile?.kind === 'custom' ? 'custom' : where;
    return (
      <main className="sign-in">
        <div className="sign-in-card">
          <h1>AgentDesk</h1>
          <SignInWaiting where={waitingWhere} progress={progress} onCancel={() => void cancelSignIn()} />
        </div>
      </main>
    );
  }
  return (
    <main className="sign-in">
      <form className="sign-in-card" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Welcome to AgentDesk</h1>
        <fieldset>
          <legend>Where are your agents?</legend>
          <label className="choice">
            <input type="radio" name="where" checked={where === 'local'} onChange={() => setWhere('local')} />
            <span>
              <strong>This computer</strong>
              <small>Your agents live here. Works offline, no account or password needed.</small>
            </span>
          </label>
          <label className="choice">
            <input
              type="radio"
              name="where"
              checked={where === 'custom'}
              onChange={() => setWhere('custom')}
            />
            <span>
              <strong>Another server</strong>
              <small>A service at an address you were given.</small>
            </span>
          </label>
          {where === 'custom' ? (
            <div className="custom-server">
              <label>
                Server address
                <input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} inputMode="url" />
              </label>
              <label>
                Client id
                <input value={clientId} onChange={(e) => setClientId(e.target.value)} />
              </label>
              <label>
                Registered loopback ports (optional)
                <input
                  value={ports}
                  onChange={(e) => setPorts(e.target.value)}
                  placeholder="e.g. 53682, 53683"
                />
              </label>
            </div>
          ) : null}
        </fieldset>
        <button type="submit" className="primary">
          {where === 'local' ? 'Start on this computer' : 'Sign in with your browser'}
        </button>
        {formError || error || reason ? (
          <p className="error-text" role="alert">
            {formError || error || reason}
          </p>
        ) : null}
        {/* Where a sign-in costs the person something: on This computer it is one click, nothing to remember. */}
        {where === 'custom' && session?.secretStore.warning ? (
          <p className="warning-text">{session.secretStore.warning}</p>
        ) : null}
      </form>
    </main>
  );
}
