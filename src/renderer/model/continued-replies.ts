import { isTerminal, type ConversationStream, type TextPart, type Turn } from './turn-types';

/**
 * A reply that streamed in this window and then left the live timeline for the history (a read after a turn
 * the window did not send, or any later read). The history's message of it goes on showing the live turn
 * under the live row's key, so the view keeps what it built while the reply streamed instead of throwing
 * away and building again a reply of any length in one task (bench:ui: 60-75 ms for 1 MB). Pure.
 */
export interface ContinuedReply {
  /** The live row's key (`TurnItem.key`). */
  key: string;
  turn: Turn;
}

/** The ended turns of `before`'s timeline that `after` no longer holds: what a history read folded in. */
export function foldedReplies(
  before: ConversationStream | undefined,
  after: ConversationStream,
): ContinuedReply[] {
  if (!before || before.items === after.items) return [];
  const folded: ContinuedReply[] = [];
  for (const item of before.items) {
    if (item.kind !== 'turn' || after.turns[item.turnId]) continue;
    const turn = before.turns[item.turnId];
    if (turn && isTerminal(turn.state)) folded.push({ key: item.key, turn });
  }
  return folded;
}

/** What the history holds of a reply: its text, and the app's stored detail when it kept one. */
export interface HistoryReply {
  content: string;
  detail?: { turnId: string; storedText?: string } | undefined;
}

/**
 * Whether `message` is the reply `turn` streamed: the same turn when the history names it, and the same text
 * (the turn's text parts one after another, compared in place: no 1 MB string is joined to compare). A
 * history whose text differs from what streamed shows its own.
 */
export function continues(message: HistoryReply, turn: Turn): boolean {
  if (message.detail && (message.detail.turnId !== turn.turnId || message.detail.storedText !== undefined))
    return false;
  const texts = turn.parts.filter((part): part is TextPart => part.type === 'text');
  let length = 0;
  for (const part of texts) length += part.text.length;
  if (length !== message.content.length || length === 0) return false;
  let at = 0;
  for (const part of texts) {
    if (!message.content.startsWith(part.text, at)) return false;
    at += part.text.length;
  }
  return true;
}

/**
 * The replies the history's messages continue, each message matched once (`matched` remembers the answer per
 * message object, so a stream re-rendering the list every frame compares nothing again). `kept` comes back
 * with only the replies some message still continues: one the history no longer holds is let go.
 */
export function matchContinued<M extends HistoryReply>(
  messages: readonly M[],
  kept: readonly ContinuedReply[],
  matched: WeakMap<M, ContinuedReply | null>,
): { byMessage: Map<M, ContinuedReply>; kept: ContinuedReply[] } {
  const byMessage = new Map<M, ContinuedReply>();
  if (kept.length === 0) return { byMessage, kept: [] };
  const open = new Set(kept);
  for (const message of messages) {
    let reply = matched.get(message);
    if (reply === undefined || (reply && !open.has(reply))) {
      reply = kept.find((candidate) => open.has(candidate) && continues(message, candidate.turn)) ?? null;
      matched.set(message, reply);
    }
    if (!reply) continue;
    byMessage.set(message, reply);
    open.delete(reply);
  }
  return { byMessage, kept: kept.filter((reply) => !open.has(reply)) };
}
