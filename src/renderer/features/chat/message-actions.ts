import type { ForkPoint } from '../../../shared/api';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { useConversationsStore } from '../../stores/conversations-store';
import { attachmentsLastSentWith, sendMessage } from './chat-actions';

/**
 * What a message's actions do beyond the screen: send a message again (Retry, Edit), and branch a
 * conversation (our service's fork extension). Each answers '' or a sentence for the person.
 */

/** Sends `text` as a new turn: the spec only appends, so an edit or a retry is a new message. */
export async function sendAgain(agentId: string, sessionId: string, text: string): Promise<string> {
  const attachments = attachmentsLastSentWith(sessionId, text);
  const { problems } = await sendMessage(agentId, sessionId, { content: text, attachments });
  return problems.join(' ');
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
