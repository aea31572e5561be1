import {
  isBridgeCallName,
  isBridgeSubscriptionName,
  type DeskBridge,
  type DeskError,
  type DeskResult,
  type Unsubscribe,
} from '../../shared/bridge';

/**
 * What every carrier (Electron IPC, the browser-mode WebSocket) does with a
 * call that arrives by name: check the name against `bridgeMethodNames`, run
 * it on the host, and turn anything thrown into a `{ code, message }` value.
 */
export interface BridgeDispatcher {
  call(name: string, args: unknown): Promise<DeskResult<unknown>>;
  /** Starts a subscription; `emit` receives each payload until the returned Unsubscribe runs. */
  subscribe(name: string, args: unknown, emit: (payload: unknown) => void): DeskResult<Unsubscribe>;
}

const unknownMethod = (name: string): DeskError => ({
  code: 'unknown_method',
  message: `The app has no action called "${name}".`,
});

const badArguments = (name: string): DeskError => ({
  code: 'invalid_argument',
  message: `The action "${name}" was called with arguments the app cannot read.`,
});

export function createBridgeDispatcher(
  bridge: DeskBridge,
  onError?: (error: unknown) => void,
): BridgeDispatcher {
  return {
    async call(name, args) {
      if (!isBridgeCallName(name)) return { ok: false, error: unknownMethod(name) };
      if (!Array.isArray(args)) return { ok: false, error: badArguments(name) };
      try {
        const method = bridge[name] as (...a: unknown[]) => Promise<DeskResult<unknown>>;
        return await method.apply(bridge, args);
      } catch (error) {
        onError?.(error);
        return {
          ok: false,
          error: { code: 'internal', message: `Something went wrong while running "${name}".` },
        };
      }
    },
    subscribe(name, args, emit) {
      if (!isBridgeSubscriptionName(name)) return { ok: false, error: unknownMethod(name) };
      if (!Array.isArray(args)) return { ok: false, error: badArguments(name) };
      try {
        const method = bridge[name] as (...a: unknown[]) => Unsubscribe;
        return { ok: true, value: method.apply(bridge, [...args, emit]) };
      } catch (error) {
        onError?.(error);
        return { ok: false, error: { code: 'internal', message: `Could not start "${name}".` } };
      }
    },
  };
}

/**
 * The subscriptions one renderer (one window, one socket) holds, by the id
 * the renderer chose. `dispose()` ends all of them when the renderer goes away.
 */
export interface SubscriptionRegistry {
  add(id: string | number, unsubscribe: Unsubscribe): void;
  remove(id: string | number): void;
  readonly size: number;
  dispose(): void;
}

export function createSubscriptionRegistry(): SubscriptionRegistry {
  const active = new Map<string | number, Unsubscribe>();
  const end = (unsubscribe: Unsubscribe | undefined): void => {
    try {
      unsubscribe?.();
    } catch {
      // A failing unsubscribe must not keep the others alive.
    }
  };
  return {
    add(id, unsubscribe) {
      end(active.get(id));
      active.set(id, unsubscribe);
    },
    remove(id) {
      const unsubscribe = active.get(id);
      active.delete(id);
      end(unsubscribe);
    },
    get size() {
      return active.size;
    },
    dispose() {
      const all = [...active.values()];
      active.clear();
      all.forEach(end);
    },
  };
}
