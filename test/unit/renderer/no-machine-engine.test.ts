import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentConfiguration } from '../../../src/shared/api';
import type { DeskBridge, DeskResult } from '../../../src/shared/bridge';
import { useAgentsStore } from '../../../src/renderer/stores/agents-store';
import { useAgentConfigStore } from '../../../src/renderer/stores/agent-config-store';
import { useConversationsStore } from '../../../src/renderer/stores/conversations-store';

// The host's failure for an engine without a machine, exactly as test/integration/host/no-machine-engine.test.ts
// gets it from the real service, reaches the stores' words: the engine's name, not an empty one or the page's
// stale engine. The bridge is a stand-in (the Electron IPC cannot run in a unit test).
const noMachine: DeskResult<never> = {
  ok: false,
  error: { code: 'agente_no_acp', status: 409, engine: 'house-lite', message: 'No machine.' },
};

describe('an engine without a machine, in the stores', () => {
  beforeAll(() => {
    const bridge: Partial<DeskBridge> = {
      listConversations: async () => noMachine,
      restartAgent: async () => noMachine,
      getAgentConfig: async () => noMachine,
    };
    (globalThis as { window?: unknown }).window = { desk: bridge };
  });
  afterAll(() => {
    delete (globalThis as { window?: unknown }).window;
  });

  it('the agents list learns which engine cannot hold conversations', async () => {
    await useConversationsStore.getState().load('a1');
    expect(useAgentsStore.getState().noMachine['a1']).toBe('house-lite');
  });

  it("the agent's settings name the server's engine, not the page's stale one", async () => {
    const stale: AgentConfiguration = { id: 'a2', engine: 'engine-b' };
    useAgentConfigStore.setState({ agentId: 'a2', section: 'tools', config: stale });
    await useAgentConfigStore.getState().restart();
    expect(useAgentsStore.getState().noMachine['a2']).toBe('house-lite');
  });
});
