export function App() {
  return (
    <div className="app-shell">
      <aside className="sidebar" aria-label="Agents">
        <h1 className="brand">AgentDesk</h1>
      </aside>
      <main className="content">
        <p className="empty-state">Sign in to see your agents.</p>
      </main>
    </div>
  );
}
