import { useState } from 'react';
import type { ProfilesState } from '../../../shared/bridge';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { useSessionStore } from '../../stores/session-store';
import { serverWords } from './account-words';
import { ErrorLine } from '../../ui/ErrorLine';

/** Saved servers and accounts: switch to one, forget one, or add another server. */
export function SavedServers(props: {
  profiles: ProfilesState | null;
  onChanged(state: ProfilesState): void;
}) {
  const [problem, setProblem] = useState('');
  const [adding, setAdding] = useState(false);
  const [baseUrl, setBaseUrl] = useState('');
  const [clientId, setClientId] = useState('');
  const state = props.profiles;
  const hasLocal = state?.profiles.some((p) => p.kind === 'local') ?? false;

  const switchTo = async (profileId: string) => {
    const result = await desk().switchProfile(profileId);
    if (!result.ok) setProblem(errorWords(result.error));
  };
  const forget = async (profileId: string) => {
    const result = await desk().removeProfile(profileId);
    if (result.ok) props.onChanged(result.value);
    else setProblem(errorWords(result.error));
  };

  return (
    <section className="screen-section" aria-label="Saved servers">
      <h3>Servers and accounts</h3>
      <ul className="card-list" aria-label="Saved servers list">
        {state?.profiles.map((profile) => {
          const active = profile.id === state.activeProfileId;
          return (
            <li key={profile.id}>
              <div className="card-main">
                <span>{profile.name}</span>
                <span className="muted small-text">{serverWords(profile)}</span>
              </div>
              {active ? (
                <span className="pill ok">In use</span>
              ) : (
                <>
                  <button type="button" className="small" onClick={() => void switchTo(profile.id)}>
                    Switch
                  </button>
                  <button type="button" className="small" onClick={() => void forget(profile.id)}>
                    Forget
                  </button>
                </>
              )}
            </li>
          );
        })}
      </ul>
      <ErrorLine text={problem} />
      <div className="row-actions">
        {hasLocal ? null : (
          <button type="button" onClick={() => void useSessionStore.getState().signInHere()}>
            Use this computer
          </button>
        )}
        <button type="button" onClick={() => setAdding(!adding)}>
          Add another server…
        </button>
      </div>
      {adding ? (
        <form
          className="add-server"
          aria-label="Add a server"
          onSubmit={(event) => {
            event.preventDefault();
            void useSessionStore
              .getState()
              .signInCustom({ baseUrl: baseUrl.trim(), clientId: clientId.trim() });
          }}
        >
          <label>
            Server address
            <input
              value={baseUrl}
              placeholder="https://agents.example.com"
              onChange={(e) => setBaseUrl(e.target.value)}
            />
          </label>
          <label>
            Client id (from the server’s operator)
            <input value={clientId} onChange={(e) => setClientId(e.target.value)} />
          </label>
          <button type="submit" className="primary" disabled={!baseUrl.trim() || !clientId.trim()}>
            Add and sign in
          </button>
        </form>
      ) : null}
    </section>
  );
}
