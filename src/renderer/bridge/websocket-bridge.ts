import {
  bridgeMethodNames,
  isBridgeSubscriptionName,
  type DeskBridge,
  type DeskResult,
  type Unsubscribe,
} from '../../shared/bridge';
import type { HostMessage, PageMessage } from '../../shared/bridge/wire';

/** The part of the browser's WebSocket this client uses (tests pass the `ws` package's). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface WebSocketBridgeOptions {
  /** `ws://127.0.0.1:<port>/desk` */
  url: string;
  /** The per-launch key the host printed in the page URL's fragment. */
  key: string;
  createSocket?(url: string): SocketLike;
  /** Browser mode's "system browser": a new tab of this browser. */
  openUrl?(url: string): void;
  /** Browser mode's OS notification. */
  notify?(title: string, body?: string): void;
  /** Waits before reconnecting; grows to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
}

export interface WebSocketBridge {
  bridge: DeskBridge;
  close(): void;
}

const OPEN = 1;

// Typed through SocketLike so this file also compiles (and is tested) outside a DOM.
const defaultSocket = (url: string): SocketLike =>
  new (globalThis as unknown as { WebSocket: new (u: string) => SocketLike }).WebSocket(url);

const unavailable = (message: string): DeskResult<never> => ({
  ok: false,
  error: { code: 'bridge_unavailable', message },
});

/**
 * DeskBridge over browser mode's WebSocket. Calls wait for the socket to be
 * ready; a dropped socket fails the calls in flight, reconnects with growing
 * delays, and starts the live subscriptions again.
 */
export function createWebSocketBridge(options: WebSocketBridgeOptions): WebSocketBridge {
  const createSocket = options.createSocket ?? defaultSocket;
  const retryMs = options.retryMs ?? 500;
  const maxRetryMs = options.maxRetryMs ?? 5_000;
  const pending = new Map<number, (result: DeskResult<unknown>) => void>();
  const subscriptions = new Map<
    number,
    { name: string; args: unknown[]; listener: (payload: unknown) => void }
  >();
  let queue: PageMessage[] = [];
  let socket: SocketLike | undefined;
  let ready = false;
  let closed = false;
  let nextId = 0;
  let delay = retryMs;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const write = (message: PageMessage): void => {
    if (ready && socket?.readyState === OPEN) socket.send(JSON.stringify(message));
    else queue.push(message);
  };

  const onHostMessage = (message: HostMessage): void => {
    switch (message.type) {
      case 'ready': {
        ready = true;
        delay = retryMs;
        const waiting = queue;
        queue = [];
        // Live subscriptions start again on a new socket (their ids are kept).
        for (const [id, sub] of subscriptions) {
          if (!waiting.some((m) => m.type === 'subscribe' && m.id === id)) {
            socket?.send(JSON.stringify({ type: 'subscribe', id, name: sub.name, args: sub.args }));
          }
        }
        for (const m of waiting) socket?.send(JSON.stringify(m));
        return;
      }
      case 'result':
        pending.get(message.id)?.(message.result);
        pending.delete(message.id);
        return;
      case 'event':
        subscriptions.get(message.id)?.listener(message.payload);
        return;
      case 'subscribe-failed':
        subscriptions.delete(message.id);
        return;
      case 'open-url':
        options.openUrl?.(message.url);
        return;
      case 'notify':
        options.notify?.(message.title, message.body);
        return;
    }
  };

  const connect = (): void => {
    const current = createSocket(options.url);
    socket = current;
    current.onopen = () => current.send(JSON.stringify({ type: 'hello', key: options.key }));
    current.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      try {
        onHostMessage(JSON.parse(event.data) as HostMessage);
      } catch {
        // A message we cannot read is dropped; the host never sends one.
      }
    };
    current.onerror = () => {};
    current.onclose = (event) => {
      if (socket !== current) return;
      ready = false;
      socket = undefined;
      // Calls in flight may or may not have run; say so rather than guess.
      for (const resolve of pending.values())
        resolve(unavailable('The connection to AgentDesk was lost. Try again.'));
      pending.clear();
      queue = queue.filter((m) => m.type !== 'call');
      if (closed || event.code === 4401) return;
      retryTimer = setTimeout(connect, delay);
      delay = Math.min(delay * 2, maxRetryMs);
    };
  };

  const desk: Record<string, unknown> = {};
  for (const name of bridgeMethodNames) {
    if (isBridgeSubscriptionName(name)) {
      desk[name] = (...args: unknown[]): Unsubscribe => {
        const listener = args.pop();
        if (typeof listener !== 'function') throw new TypeError(`${name} needs a listener function.`);
        const id = ++nextId;
        subscriptions.set(id, { name, args, listener: listener as (payload: unknown) => void });
        write({ type: 'subscribe', id, name, args });
        return () => {
          if (!subscriptions.delete(id)) return;
          queue = queue.filter((m) => !(m.type === 'subscribe' && m.id === id));
          if (ready && socket?.readyState === OPEN) socket.send(JSON.stringify({ type: 'unsubscribe', id }));
        };
      };
    } else {
      desk[name] = (...args: unknown[]) =>
        new Promise<DeskResult<unknown>>((resolve) => {
          if (closed) return resolve(unavailable('AgentDesk is closed.'));
          const id = ++nextId;
          pending.set(id, resolve);
          write({ type: 'call', id, name, args });
        });
    }
  }

  connect();
  return {
    bridge: Object.freeze(desk) as unknown as DeskBridge,
    close() {
      closed = true;
      clearTimeout(retryTimer);
      socket?.close(1000, 'closed');
    },
  };
}
