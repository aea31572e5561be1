import type { ConversationUpdate } from '../../src/shared/bridge';

/** Whether the host's conversation updates hold the `done` of this turn (the turn has ended). */
export function hasTurnEnded(updates: readonly ConversationUpdate[], turnId: string): boolean {
  return updates.some(
    (u) =>
      u.kind === 'event' &&
      u.event.event === 'done' &&
      (u.event.data as { turnId?: string }).turnId === turnId,
  );
}
