import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { BridgeDispatcher, SubscriptionRegistry } from '../core/host/dispatch';
import { createSubscriptionRegistry } from '../core/host/dispatch';
import {
  bridgeChannels,
  bridgeMethodNames,
  isBridgeSubscriptionName,
  type DeskResult,
} from '../shared/bridge';

export interface BridgeIpcOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  dispatcher: BridgeDispatcher;
  /** Refuses calls from anything but our own window's top frame. */
  isTrustedSender(event: IpcMainInvokeEvent): boolean;
  onRefused?(channel: string, event: IpcMainInvokeEvent): void;
}

const refused: DeskResult<never> = {
  ok: false,
  error: { code: 'bridge_unavailable', message: 'This window is not allowed to use AgentDesk.' },
};

/**
 * Wires one `ipcMain.handle` channel per bridge method (and subscribe /
 * unsubscribe channels per `on*` method), each checking its sender first.
 * Returns a function that removes every handler and ends every subscription.
 */
export function registerBridgeIpc(options: BridgeIpcOptions): () => void {
  const { ipcMain, dispatcher } = options;
  const registries = new Map<number, SubscriptionRegistry>();
  const channels: string[] = [];

  const registryFor = (sender: WebContents): SubscriptionRegistry => {
    let registry = registries.get(sender.id);
    if (!registry) {
      const created = createSubscriptionRegistry();
      registry = created;
      registries.set(sender.id, created);
      const end = (): void => {
        created.dispose();
        registries.delete(sender.id);
      };
      // A closed window or a reloaded page no longer listens: end what it held.
      sender.once('destroyed', end);
      sender.once('did-navigate', end);
    }
    return registry;
  };

  const guard = (channel: string, event: IpcMainInvokeEvent): boolean => {
    if (options.isTrustedSender(event)) return true;
    options.onRefused?.(channel, event);
    return false;
  };

  for (const name of bridgeMethodNames) {
    if (isBridgeSubscriptionName(name)) {
      const subscribeChannel = bridgeChannels.subscribe(name);
      const unsubscribeChannel = bridgeChannels.unsubscribe(name);
      const eventChannel = bridgeChannels.event(name);
      ipcMain.handle(subscribeChannel, (event, id: unknown, ...args: unknown[]) => {
        if (!guard(subscribeChannel, event)) return refused;
        if (typeof id !== 'number')
          return { ok: false, error: { code: 'invalid_argument', message: 'Bad subscription id.' } };
        const sender = event.sender;
        const started = dispatcher.subscribe(name, args, (payload) => {
          if (!sender.isDestroyed()) sender.send(eventChannel, id, payload);
        });
        if (!started.ok) return started;
        registryFor(sender).add(id, started.value);
        return { ok: true, value: undefined };
      });
      ipcMain.handle(unsubscribeChannel, (event, id: unknown) => {
        if (!guard(unsubscribeChannel, event)) return refused;
        if (typeof id === 'number') registries.get(event.sender.id)?.remove(id);
        return { ok: true, value: undefined };
      });
      channels.push(subscribeChannel, unsubscribeChannel);
    } else {
      const channel = bridgeChannels.call(name);
      ipcMain.handle(channel, (event, ...args: unknown[]) => {
        if (!guard(channel, event)) return refused;
        return dispatcher.call(name, args);
      });
      channels.push(channel);
    }
  }

  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
    for (const registry of registries.values()) registry.dispose();
    registries.clear();
  };
}
