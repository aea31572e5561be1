import './ui/app.css';
import { useEffect } from 'react';
import { SignInScreen } from './features/session/SignInScreen';
import { Workspace } from './features/Workspace';
import { useSessionStore } from './stores/session-store';
import { useSettingsStore } from './stores/settings-store';

export function App() {
  const session = useSessionStore((s) => s.session);
  const error = useSessionStore((s) => s.error);
  useEffect(() => useSessionStore.getState().start(), []);
  // Settings are the app's, not an account's: the theme applies before anyone signs in.
  useEffect(() => void useSettingsStore.getState().load(), []);

  if (!session) {
    return (
      <div className="app-shell">
        <aside className="sidebar" aria-label="Agents">
          <h1 className="brand">AgentDesk</h1>
        </aside>
        <main className="content">
          <p className="empty-state" role={error ? 'alert' : 'status'}>
            {error || 'Starting…'}
          </p>
        </main>
      </div>
    );
  }
  if (session.status !== 'signed-in') return <SignInScreen />;
  return <Workspace key={session.profile?.id ?? 'profile'} />;
}
