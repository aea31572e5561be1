import type { ForkPoint } from '../../../shared/api';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { useConversationsStore } from '../../stores/conversations-store';
import { useTurnStreamStore } from '../../stores/turn-stream-store';
import { useVersionsStore } from '../../stores/versions-store';
import { attachmentsLastSentWith, openConversation, sendMessage, sendNow } from './chat-actions';
import { inSendOrder } from './send-order';

/**
 * What a message's actions do beyond the screen: send a message again in place (Retry, Edit), and branch a
 * conversation (our service's fork extension). Each answers '' or a sentence for the person.
 */

/** Sends `text` as a new turn at the end (the spec only appends). */
export function sendAgain(agentId: string, sessionId: string, text: string): Promise<string> {
  return inSendOrder(sessionId, () => appendAgain(agentId, sessionId, text));
}

async function appendAgain(agentId: string, sessionId: string, text: string): Promise<string> {
  const attachments = attachmentsLastSentWith(sessionId, text);
  const { problems } = await sendNow(agentId, sessionId, { content: text, attachments });
  return problems.join(' ');
}

/** How Retry and Edit can work on this server, best first (docs/extensions.md). */
export type RedoWay = 'rewind' | 'branch' | 'append';

export function redoWay(extensions: readonly string[]): RedoWay {
  if (extensions.includes('rewindConversation')) return 'rewind';
  if (extensions.includes('forkConversation')) return 'branch';
  return 'append';
}

/**
 * Retry or Edit in place: the exchange that starts with the person's last message `was` is replaced by
 * `text` and its new reply. With our rewind extension the conversation goes back to before that message
 * (kept as an earlier version) and the agent's context holds only the new one; with only the fork, the
 * history before it goes to a new conversation, linked as the next version; else `text` is sent at the end.
 */
export function redoExchange(agentId: string, sessionId: string, was: string, text: string): Promise<string> {
  // A message sent while this runs goes after the new one, not between the rewind and it (send-order.ts).
  return inSendOrder(sessionId, () => redoNow(agentId, sessionId, was, text));
}

async function redoNow(agentId: string, sessionId: string, was: string, text: string): Promise<string> {
  const offered = await desk().serverExtensions();
  const way = redoWay(offered.ok ? offered.value : []);
  if (way === 'append') return appendAgain(agentId, sessionId, text);
  const attachments = attachmentsLastSentWith(sessionId, was);
  const at = await positionOf(agentId, sessionId, was);
  if (typeof at === 'string') return at;
  if (way === 'rewind') {
    const rewound = await desk().rewindConversation(agentId, sessionId, at);
    if (!rewound.ok) return errorWords(rewound.error);
    useTurnStreamStore.getState().update(sessionId, (stream) => ({ ...stream, items: [] }));
    useVersionsStore.getState().view(sessionId, at, Number.MAX_SAFE_INTEGER);
    await Promise.all([
      openConversation(agentId, sessionId),
      useVersionsStore.getState().load(agentId, sessionId),
    ]);
    const { problems } = await sendNow(agentId, sessionId, { content: text, attachments });
    return problems.join(' ');
  }
  const next =
    at > 0
      ? await desk().forkConversation(agentId, sessionId, { firstMessages: at })
      : await desk().createConversation(agentId);
  if (!next.ok) return errorWords(next.error);
  useVersionsStore.getState().link(sessionId, next.value.id, at);
  const conversations = useConversationsStore.getState();
  await conversations.refresh(agentId);
  conversations.select(next.value.id);
  const { problems } = await sendMessage(agentId, next.value.id, { content: text, attachments });
  return problems.join(' ');
}

/** The position of the person's last message (its text `was`) in the conversation as the server has it now. */
async function positionOf(agentId: string, sessionId: string, was: string): Promise<number | string> {
  const read = await desk().getConversation(agentId, sessionId, { limit: 20 });
  if (!read.ok) return errorWords(read.error);
  const { messages, skipped } = read.value;
  const same = messages.findLastIndex((m) => m.role === 'user' && m.content.trim() === was.trim());
  const last = same >= 0 ? same : messages.findLastIndex((m) => m.role === 'user');
  if (last < 0) return 'That message is no longer in this conversation.';
  return skipped + last;
}

/** A new conversation with this one's history up to `at`, opened at once. */
export async function branchAt(agentId: string, sessionId: string, at: ForkPoint): Promise<string> {
  const forked = await desk().forkConversation(agentId, sessionId, at);
  if (!forked.ok) return errorWords(forked.error);
  const conversations = useConversationsStore.getState();
  await conversations.refresh(agentId);
  conversations.select(forked.value.id);
  return '';
}
