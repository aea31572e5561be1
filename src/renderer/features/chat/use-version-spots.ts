import { useEffect, useMemo } from 'react';
import type { ConversationVersionView } from '../../../shared/api';
import type { Thread } from '../../stores/conversations-store';
import { useVersionsStore } from '../../stores/versions-store';
import { useServerOffers } from '../../ui/use-server-offers';
import type { VersionSpot } from './VersionSwitcher';

/**
 * Where this conversation's exchanges have versions (by the position of the message that starts each), and
 * the earlier version shown in place of the live one, if the person chose one. Versions come from the
 * server's rewind extension; on a server without it, from the Branch links kept on this computer.
 */
export function useVersionSpots(
  agentId: string,
  sessionId: string,
  thread: Thread | undefined,
): { spots: Map<number, VersionSpot>; shown: ConversationVersionView | undefined } {
  const rewinds = useServerOffers('rewindConversation');
  const versions = useVersionsStore((s) => s.versions[sessionId]);
  const viewing = useVersionsStore((s) => s.viewing[sessionId]);
  const messageCount = thread?.messages.length ?? 0;
  useEffect(() => {
    if (rewinds) void useVersionsStore.getState().load(agentId, sessionId);
  }, [rewinds, agentId, sessionId]);

  return useMemo(() => {
    const spots = new Map<number, VersionSpot>();
    let shown: ConversationVersionView | undefined;
    if (rewinds) {
      const byFrom = new Map<number, ConversationVersionView[]>();
      for (const v of versions ?? []) byFrom.set(v.from, [...(byFrom.get(v.from) ?? []), v]);
      for (const [from, kept] of byFrom) {
        const index = viewing?.from === from ? viewing.index : kept.length;
        spots.set(from, { from, index, total: kept.length + 1 });
        if (viewing?.from === from) shown = kept[viewing.index];
      }
    } else {
      for (const link of useVersionsStore.getState().links(sessionId)) {
        const index = link.direction === 'next' ? 0 : 1;
        spots.set(link.from, {
          from: link.from,
          index,
          total: 2,
          linked: { sessionId: link.sessionId, direction: link.direction },
        });
      }
    }
    return { spots, shown };
    // The links are read again when the thread changes (a Branch made elsewhere in this window).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rewinds, versions, viewing, sessionId, messageCount]);
}
