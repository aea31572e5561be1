import { useConversationsStore } from '../../stores/conversations-store';
import { useVersionsStore } from '../../stores/versions-store';
import './versions.css';

/** Where an exchange has versions: how many, which one shows, and (on a server without rewind) the linked conversation. */
export interface VersionSpot {
  from: number;
  index: number;
  total: number;
  /** Branch fallback: the conversation the previous (or next) version lives in. */
  linked?: { sessionId: string; direction: 'previous' | 'next' };
}

/**
 * `‹ 1/2 ›` under the person's message that starts an exchange with versions: the earlier ones stay
 * readable in place (read-only); the newest is the one the conversation, and the agent, go on from.
 */
export function VersionSwitcher(props: { sessionId: string; spot: VersionSpot }) {
  const { sessionId, spot } = props;
  const go = (index: number) => {
    if (spot.linked) {
      useConversationsStore.getState().select(spot.linked.sessionId);
      return;
    }
    useVersionsStore.getState().view(sessionId, spot.from, index);
  };
  const earlier = spot.index < spot.total - 1;
  return (
    <div className="version-switcher" role="group" aria-label="Versions of this exchange">
      <button
        type="button"
        aria-label="Previous version"
        title="Previous version"
        disabled={spot.index === 0}
        onClick={() => go(spot.index - 1)}
      >
        ‹
      </button>
      <span className="version-count" aria-live="polite" aria-atomic="true">
        <span aria-hidden="true">
          {spot.index + 1}/{spot.total}
        </span>
        <span className="visually-hidden">
          Version {spot.index + 1} of {spot.total}
        </span>
      </span>
      <button
        type="button"
        aria-label="Next version"
        title="Next version"
        disabled={spot.index === spot.total - 1}
        onClick={() => go(spot.index + 1)}
      >
        ›
      </button>
      {earlier && !spot.linked ? (
        <span className="muted version-note">
          An earlier version, kept for reading. The conversation goes on from the latest.
        </span>
      ) : null}
      {spot.linked ? (
        <span className="muted version-note">
          {spot.linked.direction === 'next'
            ? 'The next version is another conversation.'
            : 'The earlier version is another conversation.'}
        </span>
      ) : null}
    </div>
  );
}
