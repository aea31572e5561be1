/**
 * The load generator's connection (paced-load.ts): one keep-alive HTTP/1.1 connection on a bare socket that
 * writes one prepared GET at a time and reads its answer by Content-Length (or to a chunked body's last
 * chunk). Node's own client (`http.get`) costs ~300 µs of CPU and a few objects a request, on the same two
 * cores as the service it measures; this costs a write and a `indexOf`, so the generator's own work and
 * collections stay out of the service's latency as far as they can.
 */
import net from 'node:net';

const HEAD_END = Buffer.from('\r\n\r\n');
const LAST_CHUNK = Buffer.from('\r\n0\r\n\r\n');

/** The bytes of `GET <url>` with `headers`, kept alive. */
export function getRequest(url: URL, headers: Record<string, string>): Buffer {
  const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, 'Connection: keep-alive'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/** Where the answer in `bytes` ends, or -1 while it is not all there. */
export function answerEnd(bytes: Buffer): number {
  const headEnd = bytes.indexOf(HEAD_END);
  if (headEnd < 0) return -1;
  const head = bytes.toString('latin1', 0, headEnd);
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1];
  const bodyStart = headEnd + HEAD_END.length;
  if (length !== undefined) {
    const end = bodyStart + Number(length);
    return bytes.length >= end ? end : -1;
  }
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    const last = bytes.indexOf(LAST_CHUNK, bodyStart - 2);
    return last < 0 ? -1 : last + LAST_CHUNK.length;
  }
  return bodyStart; // no body (204, 304)
}

export class LeanConnection {
  private readonly socket: net.Socket;
  private received: Buffer = Buffer.alloc(0);
  private waiting: ((status: number | null) => void) | null = null;
  private readonly onClose: (connection: LeanConnection) => void;
  closed = false;
  /** False once closed, or once the peer said it closes after the answer on its way. */
  reusable = true;

  constructor(url: URL, onClose: (connection: LeanConnection) => void) {
    this.socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.onClose = onClose;
    this.socket.on('error', () => this.close());
    this.socket.on('close', () => this.close());
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.reusable = false;
    this.socket.destroy();
    this.onClose(this);
    this.finish(null);
  }

  /** Writes `request`; `done` gets the answer's status, or null when the connection failed first. */
  send(request: Buffer, done: (status: number | null) => void): void {
    this.waiting = done;
    this.socket.write(request);
  }

  destroy(): void {
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    this.received = this.received.length ? Buffer.concat([this.received, chunk]) : chunk;
    const end = answerEnd(this.received);
    if (end < 0) return;
    const status = Number(this.received.toString('latin1', 9, 12));
    // A peer that closes after this answer: the connection takes no further request.
    const last = /\r\nconnection:\s*close/i.test(this.received.toString('latin1', 0, end));
    if (last) this.reusable = false;
    this.received = this.received.subarray(end);
    this.finish(status);
    if (last) this.close();
  }

  private finish(status: number | null): void {
    const done = this.waiting;
    this.waiting = null;
    done?.(status);
  }
}
