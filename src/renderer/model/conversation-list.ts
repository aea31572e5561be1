/** The conversation list's order and its items' last turn, as the conversations store keeps them (pure). */
import type { ConversationSummary, TurnSummary } from '../../shared/api';
import { isTerminal } from '../../shared/api/common';

/** The list as shown: without the conversations hidden meanwhile, the most recent first. */
export function visible(items: ConversationSummary[], hidden: Record<string, true>): ConversationSummary[] {
  return sortByRecent(items.filter((item) => !hidden[item.id]));
}

const laterOf = (a: string | null, b: string): string => (a && a > b ? a : b);

/** A late word on a turn the list already knows has ended (a send's answer after the stream) does not start it again. */
export function withTurn(item: ConversationSummary, turn: TurnSummary): ConversationSummary {
  const known = item.lastTurn;
  if (known?.turnId === turn.turnId && isTerminal(known.state) && !isTerminal(turn.state)) return item;
  return { ...item, lastTurn: turn, updatedAt: laterOf(item.updatedAt, turn.at) };
}

export function sortByRecent(items: ConversationSummary[]): ConversationSummary[] {
  return items.slice().sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''));
}
