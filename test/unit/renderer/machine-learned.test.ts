import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DeskBridge } from '../../../src/shared/bridge';
import { useAgentsStore } from '../../../src/renderer/stores/agents-store';
import { useAgentConfigStore } from '../../../src/renderer/stores/agent-config-store';
import { useConversationsStore } from '../../../src/renderer/stores/conversations-store';

// Whether an agent can chat is kept in one place (the agents store) and follows the server's `hasMachine`:
// an engine change saved in the studio clears "Cannot chat" and reads the conversations again. The bridge is
// a stand-in (the Electron IPC cannot run in a unit test); the e2e no-chat-engine-change.spec.ts runs it for real.
const listed: string[] = [];
let engine = 'house-lite';

beforeAll(() => {
  const bridge: Partial<DeskBridge> = {
    listConversations: async (agentId) => {
      listed.push(agentId);
      return engine === 'house-lite'
        ? { ok: false, error: { code: 'agente_no_acp', status: 409, engine, message: 'No machine.' } }
        : { ok: true, value: [] };
    },
    getAgentConfig: async (agentId) => ({
      ok: true,
      value: { id: agentId, engine: engine as 'house-lite', hasMachine: engine !== 'house-lite' },
    }),
    restartAgent: async () => ({ ok: true, value: { restarted: true, sandboxId: 's1' } }),
    patchAgentConfig: async (agentId, patch) => {
      engine = patch.engine ?? engine;
      return {
        ok: true,
        value: { id: agentId, engine: engine as 'engine-b', hasMachine: engine !== 'house-lite' },
      };
    },
  };
  (globalThis as { window?: unknown }).window = { desk: bridge };
});
afterAll(() => {
  delete (globalThis as { window?: unknown }).window;
});

it('a saved engine with a machine clears "Cannot chat" in both views and reads the conversations again', async () => {
  await useConversationsStore.getState().load('a1');
  expect(useAgentsStore.getState().noMachine['a1']).toBe('house-lite');
  expect(useConversationsStore.getState().byAgent['a1']?.status).toBe('error');

  useAgentConfigStore.getState().open('a1', 'engine');
  await expect.poll(() => useAgentConfigStore.getState().status).toBe('ready');
  expect(listed).toEqual(['a1']);

  expect(await useAgentConfigStore.getState().save('engine', { engine: 'engine-b' })).toBe(true);
  expect(useAgentsStore.getState().noMachine['a1']).toBeUndefined();
  await expect.poll(() => useConversationsStore.getState().byAgent['a1']?.status).toBe('ready');
  expect(listed).toEqual(['a1', 'a1']);

  // And back: the server's answer sets it again, without reading a list that cannot be had.
  expect(await useAgentConfigStore.getState().save('engine', { engine: 'house-lite' })).toBe(true);
  expect(useAgentsStore.getState().noMachine['a1']).toBe('house-lite');
  expect(listed).toEqual(['a1', 'a1']);
});

it('a restart that succeeds reads whether the agent can chat again', async () => {
  engine = 'engine-b';
  useAgentsStore.getState().setNoMachine('a1', 'house-lite');
  listed.length = 0;
  await useAgentConfigStore.getState().restart();
  await expect.poll(() => useAgentsStore.getState().noMachine['a1']).toBeUndefined();
  await expect.poll(() => listed).toEqual(['a1']);
});
