import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { createSubscriptionRegistry, type BridgeDispatcher } from '../core/host/dispatch';
import {
  BRIDGE_SOCKET_PATH,
  bridgeSocketCloseCodes,
  parsePageMessage,
  type HostMessage,
} from '../shared/bridge/wire';

export interface BridgeSocketOptions {
  server: Server;
  dispatcher: BridgeDispatcher;
  /** The per-launch key the page must send first. */
  key: string;
  /** Only pages served from here may connect (the static server's origin). */
  allowedOrigin: string;
  /** How long a new socket may take to say hello. */
  helloTimeoutMs?: number;
  log?(line: string): void;
}

export interface BridgeSocket {
  /** Asks the page that last started a sign-in (else any page) to open `url`; false when no page is connected. */
  openUrl(url: string): boolean;
  /** Shows a notification in every connected page (each decides by its Notification permission). */
  notify(title: string, body?: string): void;
  readonly connections: number;
  close(): Promise<void>;
}

/** Same-length digests so the comparison takes the same time whatever the guess. */
function sameKey(expected: string, received: string): boolean {
  const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(expected), digest(received));
}

/** The hello message (the key) fits many times over; attachments after it may be large. */
const PRE_KEY_MAX_PAYLOAD = 4 * 1024;
const MAX_PAYLOAD = 64 * 1024 * 1024;

/**
 * ws fixes a connection's payload cap when it opens and has no public way to raise it, so the receiver's
 * cap is raised here once the page has proven the key (a bridge-socket test fails if ws renames it).
 */
function allowLargeMessages(ws: WebSocket): void {
  const receiver = (ws as unknown as { _receiver?: { _maxPayload?: number } })._receiver;
  if (receiver && typeof receiver._maxPayload === 'number') receiver._maxPayload = MAX_PAYLOAD;
}

/**
 * Carries DeskBridge over a WebSocket on the browser-mode server: upgrades
 * only on BRIDGE_SOCKET_PATH from the allowed Origin, then requires the
 * per-launch key as the first message before any call is run.
 */
/** How long closing waits for calls the host is still answering. */
const CLOSE_WAIT_MS = 2_000;

export function attachBridgeSocket(options: BridgeSocketOptions): BridgeSocket {
  const { dispatcher, key } = options;
  const log = options.log ?? (() => {});
  // Until the key is shown, a frame over a few KiB is refused from its header, never read (close 1009).
  const wss = new WebSocketServer({ noServer: true, maxPayload: PRE_KEY_MAX_PAYLOAD });
  const ready = new Set<WebSocket>();
  let signInPage: WebSocket | undefined;
  /** Calls the host is still answering. */
  const running = new Set<Promise<void>>();

  const send = (socket: WebSocket, message: HostMessage): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    // Nothing else upgrades on this server: an unanswered upgrade would hold its socket open forever.
    if (path !== BRIDGE_SOCKET_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    // The page's own origin, and the server named as that origin (a rebound DNS name is not).
    const host = `http://${request.headers.host ?? ''}`.toLowerCase();
    if (request.headers.origin !== options.allowedOrigin || host !== options.allowedOrigin) {
      log(`bridge: refused a socket from origin ${request.headers.origin ?? '(none)'}`);
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  options.server.on('upgrade', onUpgrade);

  wss.on('connection', (ws: WebSocket) => {
    const subscriptions = createSubscriptionRegistry();
    let authenticated = false;
    const helloTimer = setTimeout(() => {
      if (!authenticated) ws.close(bridgeSocketCloseCodes.unauthorized, 'no key');
    }, options.helloTimeoutMs ?? 10_000);

    ws.on('message', (data, isBinary) => {
      const message = isBinary ? undefined : parsePageMessage(data.toString());
      if (!message) {
        ws.close(bridgeSocketCloseCodes.badMessage, 'bad message');
        return;
      }
      if (!authenticated) {
        if (message.type !== 'hello' || !sameKey(key, message.key)) {
          log('bridge: refused a socket with a wrong or missing key');
          ws.close(bridgeSocketCloseCodes.unauthorized, 'wrong key');
          return;
        }
        authenticated = true;
        allowLargeMessages(ws);
        clearTimeout(helloTimer);
        ready.add(ws);
        send(ws, { type: 'ready' });
        return;
      }
      switch (message.type) {
        case 'hello':
          return;
        case 'call':
          if (message.name === 'signIn') signInPage = ws;
          {
            const call = dispatcher.call(message.name, message.args).then((result) => {
              send(ws, { type: 'result', id: message.id, result });
            });
            running.add(call);
            void call.finally(() => running.delete(call));
          }
          return;
        case 'subscribe': {
          const started = dispatcher.subscribe(message.name, message.args, (payload) =>
            send(ws, { type: 'event', id: message.id, payload }),
          );
          if (started.ok) subscriptions.add(message.id, started.value);
          else send(ws, { type: 'subscribe-failed', id: message.id, error: started.error });
          return;
        }
        case 'unsubscribe':
          subscriptions.remove(message.id);
          return;
      }
    });
    ws.on('close', () => {
      clearTimeout(helloTimer);
      ready.delete(ws);
      if (signInPage === ws) signInPage = undefined;
      subscriptions.dispose();
    });
    ws.on('error', (error) => log(`bridge: socket error ${error.message}`));
  });

  return {
    openUrl(url) {
      const target = signInPage && ready.has(signInPage) ? signInPage : [...ready].at(-1);
      if (!target) return false;
      send(target, { type: 'open-url', url });
      return true;
    },
    notify(title, body) {
      for (const ws of ready) send(ws, { type: 'notify', title, ...(body !== undefined ? { body } : {}) });
    },
    get connections() {
      return ready.size;
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        options.server.off('upgrade', onUpgrade);
        for (const ws of wss.clients) ws.close(bridgeSocketCloseCodes.shuttingDown, 'shutting down');
        wss.close(() => resolve());
      });
      // A call the page made just before (a setting saved, the window's place) still finishes its write
      // before the host closes: closed is closed, with nothing left writing into the data folder. A call
      // that waits on the person (a sign-in in their browser) is not waited for past a short while.
      let waited: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...running]),
        new Promise<void>((resolve) => (waited = setTimeout(resolve, CLOSE_WAIT_MS).unref())),
      ]);
      clearTimeout(waited);
    },
  };
}
