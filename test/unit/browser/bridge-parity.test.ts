import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import { createHost } from '../../../src/core/host';
import { createPreloadBridge } from '../../../src/preload/desk-bridge';
import { createWebSocketBridge } from '../../../src/renderer/bridge/websocket-bridge';
import { bridgeMethodNames, bridgeSubscriptionNames } from '../../../src/shared/bridge';

// Both carriers are built from bridgeMethodNames; this proves they expose exactly that list.
describe('bridge name parity', () => {
  it('lists each method once, and every on* name is a subscription', () => {
    expect(new Set(bridgeMethodNames).size).toBe(bridgeMethodNames.length);
    expect(bridgeMethodNames.filter((n) => n.startsWith('on')).sort()).toEqual(
      [...bridgeSubscriptionNames].sort(),
    );
  });

  it('the preload exposes exactly bridgeMethodNames', () => {
    const ipc = { invoke: async () => undefined, on: () => ipc, removeListener: () => ipc };
    const desk = createPreloadBridge(ipc as never);
    expect(Object.keys(desk).sort()).toEqual([...bridgeMethodNames].sort());
  });

  it('the browser-mode socket client exposes exactly bridgeMethodNames', () => {
    const socket = {
      readyState: 0,
      send() {},
      close() {},
      onopen: null,
      onmessage: null,
      onclose: null,
      onerror: null,
    };
    const made = createWebSocketBridge({
      url: 'ws://127.0.0.1:1/desk',
      key: 'k',
      createSocket: () => socket,
    });
    expect(Object.keys(made.bridge).sort()).toEqual([...bridgeMethodNames].sort());
    made.close();
  });

  it('the host implements exactly bridgeMethodNames (plus close and activity, never carried)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-parity-'));
    const host = await createHost({
      dataDir,
      secrets: createMemorySecretStore(),
      openBrowser: () => {},
      startEmbeddedService: () => Promise.reject(new Error('not started in this test')),
      os: {
        platform: { os: 'linux', shell: 'browser', modifierKey: 'Ctrl' },
        notify: () => {},
        openExternal: () => {},
      },
    });
    expect(Object.keys(host).sort()).toEqual([...bridgeMethodNames, 'activity', 'close'].sort());
    await host.close();
    await rm(dataDir, { recursive: true, force: true });
  });
});
