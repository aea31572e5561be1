import { useEffect, useState } from 'react';
import type { ConversationSummary } from '../../../shared/api';
import { desk } from '../../desk';
import { useAgentsStore } from '../../stores/agents-store';
import { useConversationsStore } from '../../stores/conversations-store';

/** A conversation of any agent, as the palette lists it before anything is typed. */
export interface RecentConversation {
  agentId: string;
  item: ConversationSummary;
}

/** How many the empty palette lists. */
export const RECENT_SHOWN = 8;

const whenOf = (item: ConversationSummary): string => item.lastTurn?.at ?? item.updatedAt ?? '';

/**
 * The newest conversations something was said in, over every agent: at once from the lists this window
 * already has (the selected agent's), then from each agent's list, asked when the palette opens.
 */
export function useRecentConversations(): RecentConversation[] {
  const agents = useAgentsStore((s) => s.agents);
  const [lists, setLists] = useState<Record<string, ConversationSummary[]>>(() =>
    Object.fromEntries(
      Object.entries(useConversationsStore.getState().byAgent).map(([id, entry]) => [id, entry.items]),
    ),
  );
  useEffect(() => {
    let live = true;
    for (const agent of agents)
      void desk()
        .listConversations(agent.id)
        .then((result) => {
          if (live && result.ok) setLists((before) => ({ ...before, [agent.id]: result.value }));
        });
    return () => {
      live = false;
    };
  }, [agents]);
  // One archived a moment ago (Undo still offered) is not listed again from the server's answer.
  const hidden = useConversationsStore((s) => s.hidden);
  return newest(lists, new Set(agents.map((a) => a.id))).filter((recent) => !hidden[recent.item.id]);
}

/** Pure: the newest conversations of the known agents, empty ones (nothing said, no name) left out. */
export function newest(
  lists: Readonly<Record<string, readonly ConversationSummary[]>>,
  agents: ReadonlySet<string>,
  count = RECENT_SHOWN,
): RecentConversation[] {
  return Object.entries(lists)
    .filter(([agentId]) => agents.has(agentId))
    .flatMap(([agentId, items]) =>
      items.filter((item) => item.lastTurn || item.title).map((item) => ({ agentId, item })),
    )
    .sort((a, b) => whenOf(b.item).localeCompare(whenOf(a.item)))
    .slice(0, count);
}
