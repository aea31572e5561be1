import { useEffect, useState } from 'react';
import type { ProfilesState } from '../../../shared/bridge';
import { desk } from '../../desk';
import { useSessionStore } from '../../stores/session-store';
import { DeleteAccountDialog } from './DeleteAccountDialog';
import { SavedServers } from './SavedServers';
import { deletePhrase, isOwnAccount, scopeWords, serverWords, whoWords } from './account-words';

/** Who is signed in, where and with which scopes; sign out, switch servers, delete the account. */
export function AccountScreen() {
  const session = useSessionStore((s) => s.session);
  const [profiles, setProfiles] = useState<ProfilesState | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [note, setNote] = useState('');

  useEffect(() => {
    void desk()
      .listProfiles()
      .then((result) => result.ok && setProfiles(result.value));
  }, [session?.profile?.id]);

  const email = session?.user?.email;
  const base = session?.profile?.baseUrl;
  // The built-in service has an account page; another server says where its own is. This computer's own
  // account has no password, and that page signs people in with one: it is not sent there.
  const ownAccount = isOwnAccount(email, session?.profile);
  const accountPage =
    session?.profile?.kind === 'local' && base && !ownAccount ? `${base.replace(/\/+$/, '')}/account` : null;
  const scopes = session?.scopes ?? [];
  return (
    <section className="screen" aria-label="Account">
      <header className="screen-header">
        <h2>Account</h2>
      </header>
      <div className="screen-body">
        <section className="screen-section" aria-label="Signed in">
          <h3>Signed in</h3>
          <p>
            {email ? (
              <strong>{whoWords(email, session?.profile)}</strong>
            ) : (
              <span className="muted">
                Your e-mail is not shown: this sign-in did not include the “profile” permission.
              </span>
            )}
          </p>
          <p>
            Server: <span aria-label="Server">{serverWords(session?.profile)}</span>
          </p>
          <p className="muted">AgentDesk may:</p>
          <ul aria-label="Granted scopes" className="scope-list">
            {scopes.map((scope) => (
              <li key={scope}>
                {/* The permission in words; its name on the wire, small, for those who look it up. */}
                {scopeWords[scope] ?? scope} <code className="muted">{scope}</code>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => void useSessionStore.getState().signOut()}>
            Sign out
          </button>
          <p className="muted small-text">Signing out revokes this sign-in on the server.</p>
        </section>
        <SavedServers profiles={profiles} onChanged={setProfiles} />
        <section className="screen-section" aria-label="Access keys">
          <h3>Access keys</h3>
          <p className="muted">
            Chatting and syncing in AgentDesk need none. A tool that reaches one agent directly — such as{' '}
            <code>agentdesk sync</code> running on a server — needs an access key for that agent (it starts
            with <code>gat_</code>).{' '}
            {ownAccount ? (
              <>
                On this computer no tool needs one: the <code>agentdesk</code> command signs in to your own
                account by itself, with no password.
              </>
            ) : (
              'Create one on the server’s account page, where it is shown once.'
            )}
          </p>
          {accountPage ? (
            <button type="button" onClick={() => void desk().openExternal(accountPage)}>
              Open the server’s account page
            </button>
          ) : null}
        </section>
        <section className="screen-section" aria-label="Delete account">
          <h3>Delete account</h3>
          <p className="muted">
            Deletes your agents, their workspaces, your conversations and your files on this server. It cannot
            be undone.
          </p>
          <button type="button" className="danger" onClick={() => setDeleting(true)}>
            Delete account…
          </button>
          {note ? <p role="status">{note}</p> : null}
        </section>
      </div>
      {deleting ? (
        <DeleteAccountDialog
          phrase={deletePhrase(email, session?.profile)}
          onClose={(done) => {
            setDeleting(false);
            if (done) setNote('Your account was deleted.');
          }}
        />
      ) : null}
    </section>
  );
}
