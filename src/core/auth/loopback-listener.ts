import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The RFC 8252 loopback redirect target: an HTTP server on 127.0.0.1 that accepts exactly
 * one callback on the callback path, answers it with a redirect to a static "done" page,
 * serves that page once, and then closes every connection. Everything else is a 404.
 */

export interface DonePages {
  /** HTML of the "signed in, you can close this tab" page. */
  signedIn: string;
  /** HTML of the failure page; `{{reason}}` is replaced by the escaped plain-sentence reason. */
  failed: string;
}

export type CallbackOutcome = { ok: true } | { ok: false; reason: string };

export interface ReceivedCallback {
  /** The query of the callback request (`code`, `state`, or `error`...). */
  params: URLSearchParams;
  /** Answers the waiting browser: a redirect to the signed-in or the failure page. */
  finish(outcome: CallbackOutcome): void;
}

export interface LoopbackListenerOptions {
  /** Ports registered with the service for this client, tried in order before an ephemeral one. */
  ports?: readonly number[];
  /** Defaults to `/callback`. */
  callbackPath?: string;
  pages: DonePages;
  /** How long to wait for the browser to fetch the done page before closing anyway. */
  lingerMs?: number;
  /**
   * The `state` this sign-in sent. A callback without it is answered 400 and ignored, and the listener keeps
   * waiting: any page or process can reach 127.0.0.1, and a stray request must not end the real sign-in.
   */
  expectedState?: string;
}

export interface LoopbackListener {
  readonly port: number;
  /** `http://127.0.0.1:<port>/callback`: the exact redirect_uri to send to /oauth2/authorize. */
  readonly redirectUri: string;
  /** Resolves when the one callback arrives; rejects if the listener closes first. */
  readonly callback: Promise<ReceivedCallback>;
  /** Resolves once the server and every connection are closed. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const DONE_PATHS = { signedIn: '/signed-in', failed: '/sign-in-failed' } as const;

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  connection: 'close',
};

/** Constant time over equal-length digests, whatever the lengths of the two values. */
function sameState(expected: string, received: string | null): boolean {
  if (received === null) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(expected), digest(received));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function listenOn(server: Server, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(false);
      else reject(error);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve(true);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, '127.0.0.1');
  });
}

export async function startLoopbackListener(options: LoopbackListenerOptions): Promise<LoopbackListener> {
  const callbackPath = options.callbackPath ?? '/callback';
  const lingerMs = options.lingerMs ?? 30_000;
  const sockets = new Set<Socket>();
  let port = 0;
  // idle -> waiting (callback held open) -> answered (done page may be fetched once) -> closed
  let phase: 'idle' | 'waiting' | 'answered' | 'closed' = 'idle';
  let outcome: CallbackOutcome | undefined;
  let lingerTimer: NodeJS.Timeout | undefined;

  let resolveCallback!: (callback: ReceivedCallback) => void;
  let rejectCallback!: (error: Error) => void;
  const callback = new Promise<ReceivedCallback>((resolve, reject) => {
    resolveCallback = resolve;
    rejectCallback = reject;
  });
  callback.catch(() => undefined); // a listener closed unused is not an unhandled error

  const notFound = (res: ServerResponse): void => {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end('Not found');
  };

  const servePage = (res: ServerResponse, done: CallbackOutcome): void => {
    const html = done.ok
      ? options.pages.signedIn
      : options.pages.failed.replace('{{reason}}', escapeHtml(done.reason));
    res.writeHead(200, PAGE_HEADERS);
    res.end(html);
    // The page has been handed over: nothing else is accepted, so shut everything down.
    res.once('finish', () => void close());
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    // A page that rebinds some DNS name to 127.0.0.1 would send another Host: refuse it.
    const hostOk = req.headers.host === `127.0.0.1:${port}` || req.headers.host === `localhost:${port}`;
    if (!hostOk || req.method !== 'GET') return notFound(res);

    if (url.pathname === callbackPath && phase === 'idle') {
      const { expectedState } = options;
      if (expectedState !== undefined && !sameState(expectedState, url.searchParams.get('state'))) {
        res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
        res.end("This response didn't come from the sign-in AgentDesk started, so it was ignored.");
        return;
      }
      phase = 'waiting';
      resolveCallback({
        params: url.searchParams,
        finish(result) {
          if (phase !== 'waiting') return;
          phase = 'answered';
          outcome = result;
          res.writeHead(302, {
            location: result.ok ? DONE_PATHS.signedIn : DONE_PATHS.failed,
            'cache-control': 'no-store',
            'referrer-policy': 'no-referrer',
            connection: 'close',
          });
          res.end();
          lingerTimer = setTimeout(() => void close(), lingerMs);
          lingerTimer.unref();
        },
      });
      return;
    }
    const donePath = outcome?.ok ? DONE_PATHS.signedIn : DONE_PATHS.failed;
    if (phase === 'answered' && outcome && url.pathname === donePath) return servePage(res, outcome);
    notFound(res);
  };

  const server = createServer(handle);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  let bound = false;
  for (const candidate of options.ports ?? []) {
    if (await listenOn(server, candidate)) {
      bound = true;
      break;
    }
  }
  if (!bound) await listenOn(server, 0);
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      phase = 'closed';
      if (lingerTimer) clearTimeout(lingerTimer);
      rejectCallback(new Error('The sign-in listener closed before the browser came back.'));
      server.close(() => resolve());
      // Keep-alive and preconnected sockets would keep the server open: end them all.
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    });
    return closing;
  };

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  server.once('close', () => resolveClosed());

  return {
    port,
    redirectUri: `http://127.0.0.1:${port}${callbackPath}`,
    callback,
    closed,
    close,
    [Symbol.asyncDispose]: close,
  };
}
