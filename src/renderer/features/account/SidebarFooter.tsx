import './screens.css';
import { useScreenStore, type Screen } from '../../stores/screen-store';
import { useSessionStore } from '../../stores/session-store';
import { useAgentConfigStore } from '../../stores/agent-config-store';
import { whoWords } from './account-words';

const entries: { screen: Screen; label: string }[] = [
  { screen: 'chat', label: 'Chats' },
  { screen: 'library', label: 'File library' },
  { screen: 'connectors', label: 'Connectors' },
  { screen: 'account', label: 'Account' },
  { screen: 'settings', label: 'Settings' },
];

/** Chats brings the chat forward: an open studio closes (after asking about unsaved edits). */
function show(screen: Screen): void {
  if (screen !== 'chat') return useScreenStore.getState().show(screen);
  useAgentConfigStore.getState().requestLeave(() => {
    useAgentConfigStore.getState().close();
    useScreenStore.getState().show('chat');
  });
}

/** Who is signed in, and the way to the person's screens. */
export function SidebarFooter() {
  const screen = useScreenStore((s) => s.screen);
  const who = useSessionStore((s) => whoWords(s.session?.user?.email, s.session?.profile));
  return (
    <nav className="sidebar-footer" aria-label="App">
      {who ? <p className="muted small-text">{who}</p> : null}
      {entries.map((entry) => (
        <button
          key={entry.screen}
          type="button"
          className="nav-item"
          aria-current={screen === entry.screen ? 'page' : undefined}
          onClick={() => show(entry.screen)}
        >
          {entry.label}
        </button>
      ))}
    </nav>
  );
}
