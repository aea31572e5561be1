import { useEffect, useRef, useState } from 'react';
import type { SearchHit } from '../../../shared/bridge';
import { useAgentsStore } from '../../stores/agents-store';
import { useSearchStore } from '../../stores/search-store';
import { jumpToHit, openConversationOf } from './jump-to-hit';
import { RecentList } from './RecentList';
import { SearchField } from './SearchField';
import { useRecentConversations } from './recent-conversations';
import { showDirectionControls } from '../../model/bidi-controls';

const REFRESH_MS = 2000;

/** The open palette: its own chunk, loaded the first time Mod+K is pressed (see SearchPalette.tsx). */
export function Palette() {
  const { text, filters, hits, status, error } = useSearchStore();
  const agents = useAgentsStore((s) => s.agents);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  // Nothing typed yet: the recent conversations, as in Claude and ChatGPT, chosen the same way as hits.
  const recent = useRecentConversations();
  const browsing = text.trim() === '';
  // The highlight follows a recent conversation by its id: the list can reorder while other agents' lists
  // arrive, and an index would then point at another conversation.
  const [activeRecentId, setActiveRecentId] = useState<string | null>(null);
  const recentIndex = Math.max(
    0,
    recent.findIndex((r) => r.item.id === activeRecentId),
  );
  const move = (step: number) => {
    if (!browsing) return setActive((i) => Math.min(Math.max(i + step, 0), hits.length - 1));
    const next = recent[Math.min(Math.max(recentIndex + step, 0), recent.length - 1)];
    if (next) setActiveRecentId(next.item.id);
  };
  useEffect(() => input.current?.focus(), []);
  // Escape closes the palette wherever the focus is: a modal that lost its focus (to the page body, after
  // the window was resized or its colours changed) otherwise stays open over the app and eats every click.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) useSearchStore.getState().hide();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => setActive(0), [hits]);
  // History never downloaded is indexed in the background: ask again now and then while the palette is open.
  useEffect(() => {
    // Nothing typed: nothing to ask (a fresh empty answer would move the highlight off a recent one).
    const timer = setInterval(() => {
      if (useSearchStore.getState().text.trim()) void useSearchStore.getState().search();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  const store = useSearchStore.getState();
  const choose = (hit: SearchHit | undefined) => {
    if (!hit) return;
    store.hide();
    void jumpToHit(hit);
  };
  const openRecent = (index: number) => {
    const pick = recent[index];
    if (!pick) return;
    store.hide();
    void openConversationOf(pick.agentId, pick.item.id);
  };
  const chooseActive = () => (browsing ? openRecent(recentIndex) : choose(hits[active]));
  const agentName = (id: string) => agents.find((a) => a.id === id)?.name ?? id;

  return (
    <div className="search-backdrop" onMouseDown={() => store.hide()}>
      <div
        className="search-palette"
        role="dialog"
        aria-modal="true"
        aria-label="Search all conversations"
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') store.hide();
          else if (e.key === 'ArrowDown') move(1);
          else if (e.key === 'ArrowUp') move(-1);
          else if (e.key === 'Enter') chooseActive();
          else return;
          e.preventDefault();
        }}
      >
        <SearchField ref={input} />
        <div className="search-filters">
          <label>
            Agent
            <select value={filters.agentId} onChange={(e) => store.setFilters({ agentId: e.target.value })}>
              <option value="">All agents</option>
              {agents.map((a) => (
                <option key={a.id} value={a.id}>
                  {showDirectionControls(a.name)}
                </option>
              ))}
            </select>
          </label>
          <label>
            From
            <input
              type="date"
              value={filters.from}
              onChange={(e) => store.setFilters({ from: e.target.value })}
            />
          </label>
          <label>
            To
            <input
              type="date"
              value={filters.to}
              onChange={(e) => store.setFilters({ to: e.target.value })}
            />
          </label>
        </div>
        {error ? (
          <p className="error-text" role="alert">
            {error}
          </p>
        ) : null}
        {status === 'ready' && hits.length === 0 && !browsing ? (
          <p className="muted">Nothing found.</p>
        ) : null}
        {browsing ? (
          <RecentList
            recent={recent}
            active={recentIndex}
            agentName={agentName}
            onHover={(i) => setActiveRecentId(recent[i]?.item.id ?? null)}
            onChoose={openRecent}
          />
        ) : null}
        <ul className="search-results" aria-label="Search results">
          {hits.map((hit, i) => (
            <li key={`${hit.conversationId}:${hit.position}`}>
              <button
                type="button"
                className={i === active ? 'active' : ''}
                onMouseEnter={() => setActive(i)}
                onClick={() => choose(hit)}
              >
                <span className="search-where">
                  <strong>{showDirectionControls(hit.title ?? 'Untitled conversation')}</strong>
                  <span className="muted">
                    {' '}
                    · {showDirectionControls(agentName(hit.agentId))} ·{' '}
                    {hit.role === 'user' ? 'you' : 'agent'} · {new Date(hit.at).toLocaleDateString()}
                  </span>
                </span>
                <span className="search-snippet">
                  {hit.snippet.map((s, j) =>
                    s.hit ? (
                      <mark key={j}>{showDirectionControls(s.text)}</mark>
                    ) : (
                      <span key={j}>{showDirectionControls(s.text)}</span>
                    ),
                  )}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
