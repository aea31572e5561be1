import type { TurnDetail } from '../../../shared/bridge';
import { toStreamEvent, type StreamEvent } from '../../model/stream-event';
import { emptyStream, reduceTurnEvents, type Turn } from '../../model/turn-reducer';

/**
 * A stored turn as it looked when it streamed: its recorded events go through the same pure
 * reducer the live stream uses, so thoughts, tool calls, permission cards and usage come back
 * exactly as they were shown. Events the contract no longer accepts are left out.
 */
export function replayStoredTurn(detail: TurnDetail): Turn | undefined {
  const { turnId } = detail;
  const raw: { event: string; data: Record<string, unknown> }[] = [
    { event: 'started', data: { turnId } },
    ...detail.events.map((e) => ({ event: e.event, data: { ...e.data, turnId } })),
  ];
  if (detail.usage) raw.push({ event: 'usage', data: { ...detail.usage, turnId } });
  const ended = detail.state ?? 'done';
  raw.push({ event: 'done', data: { turnId, state: ended } });
  const events = raw.map((r) => toStreamEvent(r)).filter((e): e is StreamEvent => e !== undefined);
  const turn = reduceTurnEvents(emptyStream, events).turns[turnId];
  return turn ? { ...turn, state: ended } : undefined;
}
