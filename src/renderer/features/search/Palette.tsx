import { useEffect, useLayoutEffect, useState, type RefObject } from 'react';
import type { SearchHit } from '../../../shared/bridge';
import { useAgentsStore } from '../../stores/agents-store';
import { useSearchStore } from '../../stores/search-store';
import { jumpToHit, openConversationOf } from './jump-to-hit';
import { RecentList } from './RecentList';
import { useRecentConversations } from './recent-conversations';
import { showDirectionControls } from '../../model/bidi-controls';
import { AgentOptions } from '../../ui/AgentOptions';

const REFRESH_MS = 2000;

/** The palette's keys below its field: ArrowUp, ArrowDown and Enter; true when the key was used. */
export type PaletteKeys = RefObject<((key: string) => boolean) | null>;

/**
 * The open palette's filters and results: its own chunk, loaded the first time Mod+K is pressed, under the
 * field SearchPalette.tsx keeps (so what is typed while it loads stays where it was typed). Its keys
 * reach it through `keys`.
 */
export function Palette(props: { keys: PaletteKeys }) {
  const { text, filters, hits, status, error } = useSearchStore();
  const agents = useAgentsStore((s) => s.agents);
  const [active, setActive] = useState(0);
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

  // In each commit, before the browser paints it: a key pressed the moment the results show acts on them.
  // A passive effect ran after the paint, so when the chunk's first commit showed results a search had
  // already found, an Enter in between found no handler and was lost (a busy keyboard-walk run).
  useLayoutEffect(() => {
    props.keys.current = (key) => {
      if (key === 'ArrowDown') move(1);
      else if (key === 'ArrowUp') move(-1);
      else if (key === 'Enter') chooseActive();
      else return false;
      return true;
    };
  });
  useEffect(
    () => () => {
      props.keys.current = null;
    },
    [props.keys],
  );

  return (
    <>
      <div className="search-filters">
        <label>
          Agent
          <select value={filters.agentId} onChange={(e) => store.setFilters({ agentId: e.target.value })}>
            <option value="">All agents</option>
            <AgentOptions agents={agents} />
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
          <input type="date" value={filters.to} onChange={(e) => store.setFilters({ to: e.target.value })} />
        </label>
      </div>
      {error ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : null}
      {status === 'ready' && hits.length === 0 && !browsing ? <p className="muted">Nothing found.</p> : null}
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
                  · {showDirectionControls(agentName(hit.agentId))} · {hit.role === 'user' ? 'you' : 'agent'}{' '}
                  · {new Date(hit.at).toLocaleDateString()}
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
    </>
  );
}
