import { useEffect, useState } from 'react';
import { useArchiveStore } from '../../stores/archive-store';
import { conversationTitle } from '../../model/conversation-search';
import { showDirectionControls } from '../../model/bidi-controls';
import { relativeTime } from '../../ui/relative-time';
import { useNow } from '../../ui/use-now';
import { useServerOffers } from '../../ui/use-server-offers';
import { showConversation } from './show-conversation';

/**
 * "Archived": the agent's archived conversations, each with Restore. Only where the server offers it (our
 * service's extension, docs/extensions.md) and only once something is archived; elsewhere an archive can
 * only be undone in its first seconds.
 */
export function ArchivedConversations({ agentId }: { agentId: string }) {
  const offered = useServerOffers('listArchivedConversations');
  const [open, setOpen] = useState(false);
  const archived = useArchiveStore((s) => (s.archived?.agentId === agentId ? s.archived : null));
  const [problem, setProblem] = useState('');
  const now = useNow(60_000);

  // Asked up front too, so the link shows only when something is archived.
  useEffect(() => {
    if (offered) void useArchiveStore.getState().loadArchived(agentId);
  }, [offered, open, agentId]);

  if (!offered || (!open && !archived?.items.length)) return null;
  const restore = (id: string) =>
    showConversation(() => void useArchiveStore.getState().restore(agentId, id).then(setProblem));

  return (
    <section className="archived" aria-label="Archived conversations">
      <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide archived' : 'Show archived'}
      </button>
      {open ? (
        <>
          {archived?.status === 'loading' && archived.items.length === 0 ? (
            <p className="muted">Loading archived conversations…</p>
          ) : null}
          {archived?.error || problem ? (
            <p className="error-text" role="alert">
              {problem || archived?.error}
            </p>
          ) : null}
          {archived?.status === 'ready' && archived.items.length === 0 ? (
            <p className="muted">Nothing is archived.</p>
          ) : null}
          <ul className="archived-list" aria-label="Archived list">
            {archived?.items.map((item) => (
              <li key={item.id}>
                <span className="conversation-title">{showDirectionControls(conversationTitle(item))}</span>
                <span className="muted small-text">archived {relativeTime(item.archivedAt, now)}</span>
                <button
                  type="button"
                  className="small"
                  aria-label={`Restore ${conversationTitle(item)}`}
                  onClick={() => restore(item.id)}
                >
                  Restore
                </button>
              </li>
            ))}
          </ul>
          {archived?.items.length ? (
            <p className="muted small-text">
              A restored conversation comes back without its public link or scheduled messages.
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
