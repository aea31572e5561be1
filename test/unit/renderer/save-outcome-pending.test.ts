import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DeskBridge } from '../../../src/shared/bridge';
import { useAgentConfigStore } from '../../../src/renderer/stores/agent-config-store';

// A second save of a section must not go on showing the first one's "Saved." while the server has not
// answered it yet (a person, or a test, would read the old word as the new save's). The bridge is a
// stand-in (the Electron IPC cannot run in a unit test); studio-tools.spec.ts saves twice for real.
let answer: (() => void) | undefined;

beforeAll(() => {
  const bridge: Partial<DeskBridge> = {
    getAgentConfig: async (agentId) => ({
      ok: true,
      value: { id: agentId, engine: 'engine-b', hasMachine: true },
    }),
    patchAgentConfig: async (agentId) => {
      await new Promise<void>((done) => (answer = done));
      return { ok: true, value: { id: agentId, engine: 'engine-b', hasMachine: true } };
    },
  };
  (globalThis as { window?: unknown }).window = { desk: bridge };
});
afterAll(() => {
  delete (globalThis as { window?: unknown }).window;
});

it('the last save’s outcome leaves when the next save starts, and its own comes with the answer', async () => {
  useAgentConfigStore.getState().open('a1', 'tools');
  await expect.poll(() => useAgentConfigStore.getState().status).toBe('ready');

  const first = useAgentConfigStore.getState().save('tools', {});
  await expect.poll(() => answer).toBeDefined();
  answer!();
  expect(await first).toBe(true);
  expect(useAgentConfigStore.getState().outcome).toMatchObject({ section: 'tools', message: 'Saved.' });

  answer = undefined;
  const second = useAgentConfigStore.getState().save('tools', {});
  expect(useAgentConfigStore.getState().outcome).toBeNull();
  await expect.poll(() => answer).toBeDefined();
  answer!();
  expect(await second).toBe(true);
  expect(useAgentConfigStore.getState().outcome).toMatchObject({ section: 'tools', message: 'Saved.' });
});
