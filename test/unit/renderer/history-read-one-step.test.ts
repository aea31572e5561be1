import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DeskBridge } from '../../../src/shared/bridge';
import { openConversation, unwatchAll } from '../../../src/renderer/features/chat/chat-actions';
import { useConversationsStore } from '../../../src/renderer/stores/conversations-store';
import { useTurnStreamStore } from '../../../src/renderer/stores/turn-stream-store';
import { emptyStream, reduceTurnEvents } from '../../../src/renderer/model/turn-reducer';
import type { StreamEvent } from '../../../src/renderer/model/stream-event';

// When the history is read again, the finished turn it now holds leaves the live timeline in the same
// synchronous step as the history is set: React renders between steps (a microtask later), so an await
// between the two would show the turn twice for a frame. The bridge is a stand-in (the Electron IPC cannot
// run in a unit test).
beforeAll(() => {
  const bridge: Partial<DeskBridge> = {
    onConversationEvent: () => () => {},
    listConversations: async () => ({ ok: true, value: [] }),
    openConversation: async () => ({
      ok: true,
      value: {
        agentId: 'a-history',
        conversationId: 'c-history',
        title: null,
        models: null,
        offline: false,
        messages: [
          { position: 0, role: 'user', content: 'hi', at: Date.UTC(2026, 10, 29) },
          { position: 1, role: 'assistant', content: 'hello', at: Date.UTC(2026, 10, 29) },
        ],
        skipped: 0,
        lastTurn: { turnId: 't1', state: 'done', at: '2026-11-29T00:00:00.000Z' },
      },
    }),
  };
  (globalThis as { window?: unknown }).window = { desk: bridge };
});
afterAll(() => {
  unwatchAll();
  delete (globalThis as { window?: unknown }).window;
});

it('the history and the live timeline change in one step: no render sees the finished turn in both', async () => {
  const ended = reduceTurnEvents(emptyStream, [
    { id: 't1.1', event: 'started', data: { turnId: 't1' } },
    { id: 't1.2', event: 'chunk', data: { turnId: 't1', text: 'hello' } },
    { id: 't1.3', event: 'done', data: { turnId: 't1' } },
  ] as StreamEvent[]);
  useTurnStreamStore.getState().update('c-history', () => ended);
  const shownTwice: boolean[] = [];
  const unsubscribe = useConversationsStore.subscribe((state, before) => {
    if (
      (state.threads['c-history']?.messages.length ?? 0) ===
      (before.threads['c-history']?.messages.length ?? 0)
    )
      return;
    // What a render scheduled by this change would see.
    queueMicrotask(() => shownTwice.push(!!useTurnStreamStore.getState().streams['c-history']?.turns['t1']));
  });
  await openConversation('a-history', 'c-history');
  unsubscribe();
  expect(useConversationsStore.getState().threads['c-history']?.messages).toHaveLength(2);
  expect(useTurnStreamStore.getState().streams['c-history']?.turns['t1']).toBeUndefined();
  expect(shownTwice).toEqual([false]);
});
