import './screens.css';
import { useScreenStore, type Screen } from '../../stores/screen-store';
import { useSessionStore } from '../../stores/session-store';

const entries: { screen: Screen; label: string }[] = [
  { screen: 'chat', label: 'Chats' },
  { screen: 'library', label: 'File library' },
  { screen: 'connectors', label: 'Connectors' },
  { screen: 'account', label: 'Account' },
  { screen: 'settings', label: 'Settings' },
];

/** Who is signed in, and the way to the person's screens. */
export function SidebarFooter() {
  const screen = useScreenStore((s) => s.screen);
  const user = useSessionStore((s) => s.session?.user);
  return (
    <nav className="sidebar-footer" aria-label="App">
      {user?.email ? <p className="muted small-text">{user.email}</p> : null}
      {entries.map((entry) => (
        <button
          key={entry.screen}
          type="button"
          className="nav-item"
          aria-current={screen === entry.screen ? 'page' : undefined}
          onClick={() => useScreenStore.getState().show(entry.screen)}
        >
          {entry.label}
        </button>
      ))}
    </nav>
  );
}
