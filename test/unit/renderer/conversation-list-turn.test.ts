import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DeskBridge } from '../../../src/shared/bridge';
import { useConversationsStore } from '../../../src/renderer/stores/conversations-store';

// The list's word on a conversation's last turn follows what was heard last about that turn, unless that
// would start again a turn known to have ended: on a busy machine a send's answer ("running") can come after
// the stream said the turn was done. The bridge is a stand-in (the Electron IPC cannot run in a unit test);
// new-conversation-typing.spec.ts holds the send's answer on the real page.
beforeAll(() => {
  const bridge: Partial<DeskBridge> = {
    listConversations: async () => ({
      ok: true,
      value: [{ id: 'c1', title: null, updatedAt: '2026-11-29T10:00:00.000Z', lastTurn: null }],
    }),
  };
  (globalThis as { window?: unknown }).window = { desk: bridge };
});
afterAll(() => {
  delete (globalThis as { window?: unknown }).window;
});

const lastTurn = () => useConversationsStore.getState().byAgent['a1']?.items[0]?.lastTurn;

it('a turn known to have ended is not shown running again by a late answer; a new turn is', async () => {
  await useConversationsStore.getState().load('a1');
  const store = useConversationsStore.getState();
  store.applyTurn('a1', 'c1', { turnId: 't1', state: 'done', at: '2026-11-29T10:00:02.000Z' });
  store.applyTurn('a1', 'c1', { turnId: 't1', state: 'running', at: '2026-11-29T10:00:01.000Z' });
  expect(lastTurn()).toEqual({ turnId: 't1', state: 'done', at: '2026-11-29T10:00:02.000Z' });

  store.applyTurn('a1', 'c1', { turnId: 't2', state: 'running', at: '2026-11-29T10:00:03.000Z' });
  expect(lastTurn()?.state).toBe('running');
  store.applyTurn('a1', 'c1', { turnId: 't2', state: 'stopped', at: '2026-11-29T10:00:04.000Z' });
  expect(lastTurn()?.state).toBe('stopped');
});
