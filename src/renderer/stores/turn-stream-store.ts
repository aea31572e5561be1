import { create } from 'zustand';
import type { StreamConnection } from '../../shared/bridge';
import type { StreamEvent } from '../model/stream-event';
import { emptyStream, reduceTurnEvents, type ConversationStream } from '../model/turn-reducer';

/** Live state of each conversation's stream, keyed by conversation id. */
interface TurnStreamStore {
  streams: Record<string, ConversationStream>;
  connections: Record<string, StreamConnection>;
  /** Applies one frame's batch of SSE events through the pure reducer. */
  applyEvents(sessionId: string, events: readonly StreamEvent[]): void;
  /** Applies a local action (a pure function of the stream). */
  update(sessionId: string, change: (stream: ConversationStream) => ConversationStream): void;
  setConnection(sessionId: string, connection: StreamConnection): void;
  reset(): void;
}

export const useTurnStreamStore = create<TurnStreamStore>((set, get) => ({
  streams: {},
  connections: {},
  applyEvents(sessionId, events) {
    const before = get().streams[sessionId] ?? emptyStream;
    const after = reduceTurnEvents(before, events);
    if (after !== before) set({ streams: { ...get().streams, [sessionId]: after } });
  },
  update(sessionId, change) {
    const before = get().streams[sessionId] ?? emptyStream;
    const after = change(before);
    if (after !== before) set({ streams: { ...get().streams, [sessionId]: after } });
  },
  setConnection(sessionId, connection) {
    set({ connections: { ...get().connections, [sessionId]: connection } });
  },
  reset() {
    set({ streams: {}, connections: {} });
  },
}));

export const selectStream =
  (sessionId: string | null) => (state: { streams: Record<string, ConversationStream> }) =>
    (sessionId && state.streams[sessionId]) || emptyStream;
