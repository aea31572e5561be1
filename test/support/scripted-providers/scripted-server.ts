import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { isFailure, sleep, type ScriptedFailure, type ScriptedReply, type ScriptedTurn } from './script';

/** One request as the scripted server received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body (null when there was none). */
  body: unknown;
  /** Set once the response has been fully sent. */
  finished: boolean;
  /** `performance.now()` when the whole request had arrived (benches split a path's time with it). */
  arrivedAt: number;
  /** `performance.now()` when a streamed reply's first event was written (its first byte), if it was. */
  firstByteAt?: number;
  /** Resolves when the client's connection closed, true when that happened before the response was finished. */
  closed: Promise<boolean>;
}

export interface ScriptedProvider extends AsyncDisposable {
  /** Base URL as the provider's SDK takes it (ends in `/v1`). */
  baseURL: string;
  /** Every request, in arrival order. */
  requests: RecordedRequest[];
  /** Requests to the model endpoint only (chat completions, messages). */
  modelRequests(): RecordedRequest[];
  /** Queues replies, used one per model request in order. */
  reply(...replies: ScriptedReply[]): void;
  /** How many queued replies are still unused. */
  pending(): number;
  close(): Promise<void>;
}

export interface ScriptedProviderOptions {
  /** The only key the server accepts. */
  apiKey: string;
  /** The models it lists and serves; any other model is answered 404. */
  models?: string[];
  /** Answer when the queue is empty (default: a 500 saying no reply was scripted, so a test notices). */
  fallback?: ScriptedReply;
}

/** What a wire protocol (OpenAI, Anthropic) plugs into the common server. */
export interface WireProtocol {
  modelPath: string;
  /** The key the request carried, from the protocol's own header. */
  keyOf(req: IncomingMessage): string | undefined;
  listModels(models: string[]): unknown;
  /** Status, headers and the provider's own error body for a failure (not `hang`). */
  failure(
    failure: Exclude<ScriptedFailure, { fail: 'hang' }>,
    model: string,
  ): { status: number; headers?: Record<string, string>; body: unknown };
  /** Writes a turn as one JSON body, or as the protocol's stream. */
  whole(turn: ScriptedTurn, body: Record<string, unknown>): unknown;
  stream(
    turn: ScriptedTurn,
    body: Record<string, unknown>,
    send: (event: string | null, data: unknown) => Promise<boolean>,
  ): Promise<void>;
}

/** Starts a scripted provider on 127.0.0.1 speaking `wire`. */
export async function startScriptedServer(
  wire: WireProtocol,
  options: ScriptedProviderOptions,
): Promise<ScriptedProvider> {
  const models = options.models ?? ['test-model'];
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const handle = async (req: IncomingMessage, res: ServerResponse, record: RecordedRequest) => {
    const path = record.path.replace(/\?.*$/, '');
    if (wire.keyOf(req) !== options.apiKey) return sendJson(res, wire.failure({ fail: 'refused-key' }, ''));
    if (req.method === 'GET' && path === '/v1/models')
      return sendJson(res, { status: 200, body: wire.listModels(models) });
    if (req.method !== 'POST' || path !== wire.modelPath)
      return sendJson(res, { status: 404, body: { error: { message: `no route ${req.method} ${path}` } } });
    const body = (record.body ?? {}) as Record<string, unknown>;
    const model = String(body['model'] ?? '');
    if (!models.includes(model)) return sendJson(res, wire.failure({ fail: 'unknown-model' }, model));
    const reply = queue.shift() ??
      options.fallback ?? { fail: 'server-error', message: 'The scripted provider has no reply left.' };
    if (isFailure(reply)) {
      if (reply.fail === 'hang') return; // never answered: the client must give up
      return sendJson(res, wire.failure(reply, model));
    }
    if (reply.firstByteMs) await sleep(reply.firstByteMs);
    if (body['stream'] !== true) return sendJson(res, { status: 200, body: wire.whole(reply, body) });
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.flushHeaders();
    const send = async (event: string | null, data: unknown): Promise<boolean> => {
      if (res.destroyed || res.writableEnded) return false;
      const text = typeof data === 'string' ? data : JSON.stringify(data);
      record.firstByteAt ??= performance.now();
      res.write(`${event ? `event: ${event}\n` : ''}data: ${text}\n\n`);
      return !res.destroyed;
    };
    await wire.stream(reply, body, send);
    if (reply.stallAfterPieces !== undefined) return; // left open on purpose
    res.end();
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      const record: RecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body,
        finished: false,
        arrivedAt: performance.now(),
        closed: new Promise((resolve) => res.on('close', () => resolve(!record.finished))),
      };
      res.on('finish', () => (record.finished = true));
      requests.push(record);
      handle(req, res, record).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, { status: 500, body: { error: { message: String(error) } } });
        else res.destroy();
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    modelRequests: () => requests.filter((r) => r.method === 'POST' && r.path.startsWith(wire.modelPath)),
    reply: (...replies) => void queue.push(...replies),
    pending: () => queue.length,
    close,
    [Symbol.asyncDispose]: close,
  };
}

function sendJson(
  res: ServerResponse,
  answer: { status: number; headers?: Record<string, string>; body: unknown },
): void {
  res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
  res.end(JSON.stringify(answer.body));
}
