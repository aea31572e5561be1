import './ui/app.css';
import { useEffect } from 'react';
import { QuickChat } from './features/QuickChat';
import { useSessionStore } from './stores/session-store';
import { useSettingsStore } from './stores/settings-store';

/** The quick chat window's page: the session the main window signed in, or a word to sign in there first. */
export function QuickApp() {
  const session = useSessionStore((s) => s.session);
  const error = useSessionStore((s) => s.error);
  useEffect(() => useSessionStore.getState().start(), []);
  useEffect(() => void useSettingsStore.getState().load(), []);
  if (session?.status === 'signed-in') return <QuickChat key={session.profile?.id ?? 'profile'} />;
  return (
    <main className="content">
      <p className="empty-state" role={error ? 'alert' : 'status'}>
        {error || (session ? 'Sign in in the AgentDesk window first.' : 'Starting…')}
      </p>
    </main>
  );
}
