import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createBridgeDispatcher } from '../../../src/core/host/dispatch';
import { registerBridgeIpc } from '../../../src/main/ipc';
import { createSenderCheck } from '../../../src/main/sender-check';
import {
  bridgeChannels,
  bridgeMethodNames,
  type DeskBridge,
  type SessionState,
} from '../../../src/shared/bridge';
import { createFakeBridge, type FakeBridge } from '../browser/fake-bridge';

// The Electron binary cannot run here, so `electron` is mocked: ipcMain / ipcRenderer are an
// in-memory pair that behaves like Electron's (handle/invoke per channel, send/on for events),
// and the preload is loaded against that mock.
type Handler = (event: unknown, ...args: unknown[]) => unknown;
const handlers = new Map<string, Handler>();
const rendererListeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
const senderEvents = new Map<string, () => void>();
let frameUrl = 'file:///app/out/renderer/index.html';
let frameParent: unknown = null;
let senderId = 1;
const exposed: Record<string, unknown> = {};

const sender = {
  get id() {
    return senderId;
  },
  isDestroyed: () => false,
  send: (channel: string, ...args: unknown[]) =>
    rendererListeners.get(channel)?.forEach((l) => l({ sender: 'ipc-event' }, ...args)),
  once: (event: string, fn: () => void) => senderEvents.set(event, fn),
};
const ipcMain = {
  handle: (channel: string, fn: Handler) => {
    if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    handlers.set(channel, fn);
  },
  removeHandler: (channel: string) => handlers.delete(channel),
};
const ipcRenderer = {
  invoke: async (channel: string, ...args: unknown[]) => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler({ sender, senderFrame: { url: frameUrl, parent: frameParent } }, ...args);
  },
  on: (channel: string, fn: (event: unknown, ...args: unknown[]) => void) => {
    if (!rendererListeners.has(channel)) rendererListeners.set(channel, new Set());
    rendererListeners.get(channel)!.add(fn);
    return ipcRenderer;
  },
  removeListener: (channel: string, fn: (event: unknown, ...args: unknown[]) => void) => {
    rendererListeners.get(channel)?.delete(fn);
    return ipcRenderer;
  },
};

vi.mock('electron', () => ({
  ipcRenderer,
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => (exposed[key] = value) },
}));

await import('../../../src/preload/index');
const desk = exposed['desk'] as DeskBridge;

let fake: FakeBridge;
let unregister: () => void;
const refusedChannels: string[] = [];

beforeEach(() => {
  unregister?.();
  refusedChannels.length = 0;
  frameUrl = 'file:///app/out/renderer/index.html';
  frameParent = null;
  senderId = 1;
  fake = createFakeBridge();
  unregister = registerBridgeIpc({
    ipcMain: ipcMain as never,
    dispatcher: createBridgeDispatcher(fake.bridge),
    isTrustedSender: createSenderCheck({
      trustedContentsIds: () => [1],
      rendererUrl: 'file:///app/out/renderer/index.html',
    }),
    onRefused: (channel) => refusedChannels.push(channel),
  });
});

describe('preload and IPC wiring', () => {
  it('exposes exactly bridgeMethodNames as window.desk, frozen, with nothing else', () => {
    expect(Object.keys(desk).sort()).toEqual([...bridgeMethodNames].sort());
    expect(Object.isFrozen(desk)).toBe(true);
    expect(Object.keys(exposed)).toEqual(['desk']);
    for (const name of bridgeMethodNames) expect(typeof desk[name]).toBe('function');
  });

  it('uses one named channel per method and never a generic one', () => {
    const expected = bridgeMethodNames.flatMap((name) =>
      name.startsWith('on')
        ? [
            bridgeChannels.subscribe(name as 'onSessionChange'),
            bridgeChannels.unsubscribe(name as 'onSessionChange'),
          ]
        : [bridgeChannels.call(name as 'signIn')],
    );
    expect([...handlers.keys()].sort()).toEqual(expected.sort());
    expect([...handlers.keys()].some((c) => /invoke|generic/i.test(c))).toBe(false);
  });

  it('carries a call and its result through main to the host', async () => {
    const result = await desk.sendMessage('a1', 's1', { content: 'hello', permissionMode: 'preguntar' });
    expect(result).toEqual({
      ok: true,
      value: { name: 'sendMessage', args: ['a1', 's1', { content: 'hello', permissionMode: 'preguntar' }] },
    });
  });

  it('delivers events without the IPC event object and stops them on unsubscribe', async () => {
    const seen: unknown[] = [];
    const stop = desk.onSessionChange((session) => seen.push(session));
    await vi.waitFor(() => expect(fake.subscriptions).toHaveLength(1));
    const state = { status: 'signed-out', profile: null, secretStore: { kind: 'memory' } } as SessionState;
    fake.subscriptions[0]!.emit(state);
    expect(seen).toEqual([state]);
    stop();
    await vi.waitFor(() => expect(fake.subscriptions[0]!.active).toBe(false));
    fake.subscriptions[0]!.emit(state);
    expect(seen).toHaveLength(1);
    expect(rendererListeners.get(bridgeChannels.event('onSessionChange'))?.size ?? 0).toBe(0);
  });

  it('ends every subscription of a window when it is destroyed', async () => {
    desk.onConversationEvent('a1', 's1', () => {});
    desk.onSessionChange(() => {});
    await vi.waitFor(() => expect(fake.subscriptions).toHaveLength(2));
    senderEvents.get('destroyed')!();
    expect(fake.subscriptions.map((s) => s.active)).toEqual([false, false]);
  });

  it('refuses calls from another window, a navigated page or a sub-frame', async () => {
    senderId = 2;
    expect(await desk.signOut()).toMatchObject({ ok: false, error: { code: 'bridge_unavailable' } });
    senderId = 1;
    frameUrl = 'https://evil.example/index.html';
    expect((await desk.listAgents()).ok).toBe(false);
    frameUrl = 'file:///somewhere/else.html';
    expect((await desk.listAgents()).ok).toBe(false);
    frameUrl = 'file:///app/out/renderer/index.html';
    frameParent = {};
    expect((await desk.listAgents()).ok).toBe(false);
    expect(fake.calls).toEqual([]);
    expect(refusedChannels).toEqual([
      'desk:signOut',
      'desk:listAgents',
      'desk:listAgents',
      'desk:listAgents',
    ]);
  });

  it('accepts the dev server origin in development', () => {
    const check = createSenderCheck({ trustedContentsIds: () => [1], rendererUrl: 'http://localhost:5173/' });
    const event = (url: string) => ({ sender: { id: 1 }, senderFrame: { url, parent: null } }) as never;
    expect(check(event('http://localhost:5173/index.html'))).toBe(true);
    expect(check(event('http://localhost:5174/'))).toBe(false);
  });

  it('removes every handler when unregistered', () => {
    unregister();
    expect(handlers.size).toBe(0);
    unregister = () => {};
  });
});
