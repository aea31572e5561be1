import './ui/app.css';
import { useEffect } from 'react';
import { SignInScreen } from './features/session/SignInScreen';
import { Workspace } from './features/Workspace';
import { useSessionStore } from './stores/session-store';

export function App() {
  const session = useSessionStore((s) => s.session);
  const error = useSessionStore((s) => s.error);
  useEffect(() => useSessionStore.getState().start(), []);

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
