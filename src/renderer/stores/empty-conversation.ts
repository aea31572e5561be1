import type { ConversationSummary } from '../../shared/api';
import { desk } from '../desk';
import { useSchedulesStore } from './schedules-store';
import { useTurnStreamStore } from './turn-stream-store';

/** A conversation nothing was said in yet, here or elsewhere: + New opens it instead of adding another. */
export function isEmptyConversation(
  item: ConversationSummary,
  thread: { messages: readonly unknown[] } | undefined,
): boolean {
  const stream = useTurnStreamStore.getState().streams[item.id];
  return (
    !item.lastTurn &&
    !item.title &&
    (thread?.messages.length ?? 0) === 0 &&
    (stream?.items.length ?? 0) === 0 &&
    !stream?.currentTurnId
  );
}

/** Whether this window knows the conversation has scheduled messages; undefined when it has not looked. */
export function knownSchedules(sessionId: string): boolean | undefined {
  const known = useSchedulesStore.getState().bySession[sessionId];
  return known?.status === 'ready' ? known.items.length > 0 : undefined;
}

/** A message scheduled there makes it not empty: asked of the server when this window has not seen it. */
export async function hasSchedules(agentId: string, sessionId: string): Promise<boolean> {
  const known = knownSchedules(sessionId);
  if (known !== undefined) return known;
  const result = await desk().listSchedules(agentId, sessionId);
  return !result.ok || result.value.length > 0;
}
