/**
 * A small HTTP proxy on 127.0.0.1 in front of the local service, for fault
 * injection: it forwards every request, records it, and can answer with a
 * status, truncate or rewrite a body, drop the connection, or hold a response
 * after the service has already acted on the request.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  /** Whether it asked conditionally (If-None-Match): a poll's look, not a listing. */
  conditional: boolean;
}

export type Fault =
  | { kind: 'status'; status: number; retryAfter?: number; body?: string }
  | { kind: 'drop' }
  | { kind: 'truncate'; keepBytes: number }
  | { kind: 'rewrite-json'; rewrite: (body: unknown) => unknown }
  /** Run `before` (e.g. change a file mid-cycle), then forward as usual. */
  | { kind: 'tap'; before: () => Promise<void> }
  /** Forward to the service, then never answer: the caller sees the request hang. */
  | { kind: 'hold'; onHeld?: () => void }
  /** Forward to the service, and pass its answer (of that status) on only once `until` resolves. */
  | { kind: 'delay'; until: (status: number) => Promise<void> };

export interface FaultRule {
  method?: string;
  /** Matched against the path without the query string. */
  path: RegExp;
  fault: Fault;
  /** How many matching requests it applies to (default: all). */
  times?: number;
}

export interface FaultProxy {
  url: string;
  seen: SeenRequest[];
  add(rule: FaultRule): void;
  clear(): void;
  count(method: string, path: RegExp): number;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const rules: (FaultRule & { used: number })[] = [];
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();

  const pick = (method: string, path: string) => {
    const rule = rules.find(
      (r) =>
        (!r.method || r.method === method) &&
        r.path.test(path) &&
        (r.times === undefined || r.used < r.times),
    );
    if (rule) rule.used += 1;
    return rule?.fault;
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const method = req.method ?? 'GET';
    seen.push({ method, path, conditional: req.headers['if-none-match'] !== undefined });
    const fault = pick(method, path);
    if (fault?.kind === 'status') {
      req.resume();
      res.writeHead(fault.status, {
        'content-type': 'application/json',
        ...(fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {}),
      });
      res.end(fault.body ?? JSON.stringify({ error: 'reiniciando' }));
      return;
    }
    if (fault?.kind === 'drop') {
      req.resume();
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'tap') {
      req.pause();
      void fault.before().then(() => proxyTo(req, res, undefined));
      return;
    }
    proxyTo(req, res, fault);
  });

  const proxyTo = (req: IncomingMessage, res: ServerResponse, fault: Fault | undefined) => {
    const method = req.method ?? 'GET';
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method,
        path: req.url,
        // As a reverse proxy does: the service answers only to its own loopback Host.
        headers: { ...req.headers, host: upstream.host },
      },
      async (answer) => {
        if (fault?.kind === 'hold') {
          answer.resume();
          answer.on('end', () => fault.onHeld?.());
          return;
        }
        if (fault?.kind === 'truncate' || fault?.kind === 'rewrite-json') {
          const chunks: Buffer[] = [];
          for await (const chunk of answer) chunks.push(chunk as Buffer);
          let body = Buffer.concat(chunks);
          if (fault.kind === 'truncate') body = body.subarray(0, fault.keepBytes);
          // A 304 or any answer without a JSON body goes through as it is: a throw here would leave
          // the request unanswered, and the caller hanging on a fault the test never meant.
          else if (isJson(body))
            body = Buffer.from(JSON.stringify(fault.rewrite(JSON.parse(body.toString('utf8')))));
          const headers = { ...answer.headers, 'content-length': String(body.length) };
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(body);
          return;
        }
        if (fault?.kind === 'delay') await fault.until(answer.statusCode ?? 502);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
    req.resume();
  };
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    add: (rule) => rules.push({ ...rule, used: 0 }),
    clear: () => {
      rules.length = 0;
    },
    count: (method, path) => seen.filter((s) => s.method === method && path.test(s.path)).length,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function isJson(body: Buffer): boolean {
  try {
    JSON.parse(body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}
