import type { IpcRenderer } from 'electron';
import {
  bridgeChannels,
  bridgeMethodNames,
  isBridgeSubscriptionName,
  type DeskBridge,
  type Unsubscribe,
} from '../shared/bridge';

/** The parts of ipcRenderer the bridge uses; the page never sees any of it. */
export type PreloadIpc = Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;

type Listener = (payload: unknown) => void;

/**
 * Builds `window.desk` from `bridgeMethodNames`: one invoke channel per call
 * method, and per subscription method a subscribe/unsubscribe channel plus
 * one event channel whose messages carry the subscription id.
 */
export function createPreloadBridge(ipc: PreloadIpc): DeskBridge {
  const desk: Record<string, unknown> = {};
  let nextId = 0;
  for (const name of bridgeMethodNames) {
    if (isBridgeSubscriptionName(name)) {
      const listeners = new Map<number, Listener>();
      let attached = false;
      // The IPC event object stays here: only the payload reaches the page.
      const onEvent = (_event: unknown, id: unknown, payload: unknown): void => {
        if (typeof id === 'number') listeners.get(id)?.(payload);
      };
      desk[name] = (...args: unknown[]): Unsubscribe => {
        const listener = args.pop();
        if (typeof listener !== 'function') throw new TypeError(`${name} needs a listener function.`);
        const id = ++nextId;
        listeners.set(id, listener as Listener);
        if (!attached) {
          ipc.on(bridgeChannels.event(name), onEvent);
          attached = true;
        }
        void ipc.invoke(bridgeChannels.subscribe(name), id, ...args).catch(() => undefined);
        let active = true;
        return () => {
          if (!active) return;
          active = false;
          listeners.delete(id);
          void ipc.invoke(bridgeChannels.unsubscribe(name), id).catch(() => undefined);
          if (listeners.size === 0) {
            ipc.removeListener(bridgeChannels.event(name), onEvent);
            attached = false;
          }
        };
      };
    } else {
      desk[name] = (...args: unknown[]) =>
        ipc.invoke(bridgeChannels.call(name), ...args).catch((error: unknown) => ({
          ok: false,
          error: {
            code: 'bridge_unavailable',
            message: `The app could not complete "${name}": ${describe(error)}`,
          },
        }));
    }
  }
  return Object.freeze(desk) as unknown as DeskBridge;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
