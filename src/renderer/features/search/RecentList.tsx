import { conversationTitle } from '../../model/conversation-search';
import { showDirectionControls } from '../../model/bidi-controls';
import { relativeTime } from '../../ui/relative-time';
import { useNow } from '../../ui/use-now';
import type { RecentConversation } from './recent-conversations';

/** The empty palette's list: the newest conversations of every agent, chosen by arrows and Enter or a click. */
export function RecentList(props: {
  recent: readonly RecentConversation[];
  active: number;
  agentName(agentId: string): string;
  onHover(index: number): void;
  onChoose(index: number): void;
}) {
  const now = useNow(60_000);
  if (props.recent.length === 0) return <p className="muted">No conversations yet.</p>;
  return (
    <>
      <h2 className="section-title" id="recent-title">
        Recent conversations
      </h2>
      <ul className="search-results" aria-labelledby="recent-title">
        {props.recent.map(({ agentId, item }, i) => (
          <li key={item.id}>
            <button
              type="button"
              className={i === props.active ? 'active' : ''}
              // Moving the pointer, not a list appearing under a pointer at rest, moves the highlight.
              onMouseMove={() => i !== props.active && props.onHover(i)}
              onClick={() => props.onChoose(i)}
            >
              <span className="search-where">
                <strong>{showDirectionControls(conversationTitle(item))}</strong>
                <span className="muted">
                  {' '}
                  · {showDirectionControls(props.agentName(agentId))}
                  {item.lastTurn?.at || item.updatedAt
                    ? ` · ${relativeTime(item.lastTurn?.at ?? item.updatedAt, now)}`
                    : ''}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
