import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';

/**
 * The one body reader of the service: bytes up to a cap, and JSON on top of them. A body over the cap is
 * refused at once from `Content-Length`, or cut where a streamed body passes the cap; it is never buffered.
 */

/** After a refused body: what the service still reads (and drops) so the client can read the answer. */
const DISCARD_MAX_BYTES = 4 * 1024 * 1024;
const DISCARD_GRACE_MS = 2_000;

// Requests whose body was refused unread, with the reader left where the refusal stopped.
const refused = new WeakMap<Request, ReadableStreamDefaultReader<Uint8Array> | null>();

/** Reads a request body, stopping as soon as it passes `maxBytes` (no buffering of huge uploads). */
export async function readBodyLimited(request: Request, maxBytes: number): Promise<Uint8Array | 'too_large'> {
  const declared = Number(request.headers.get('Content-Length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    refused.set(request, null);
    return 'too_large';
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      refused.set(request, reader);
      return 'too_large';
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

export type JsonRead = { ok: true; value: unknown } | { ok: false; status: 400 | 413; detalle: string };

/** A JSON body within `maxBytes`: its value (undefined when empty), 413 past the cap, 400 when not JSON. */
export async function readJson(request: Request, maxBytes: number): Promise<JsonRead> {
  const bytes = await readBodyLimited(request, maxBytes);
  if (bytes === 'too_large') return { ok: false, status: 413, detalle: 'The request body is too large.' };
  const text = decodeUtf8(bytes);
  if (text === null) return { ok: false, status: 400, detalle: 'The body is not valid UTF-8.' };
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, status: 400, detalle: 'The body is not valid JSON.' };
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** UTF-8 text of `bytes`, or null when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * App-wide: once the answer to a refused body is out, read and drop the rest for a little while before the
 * connection ends. Closing a socket with unread bytes resets it, and a client still sending would then meet
 * EPIPE or ECONNRESET instead of reading the 413. No `Connection: close` header for the same reason: Node
 * would close the socket the moment the answer is written.
 */
export function settleRefusedBodies(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!refused.has(c.req.raw)) return;
    const reader = refused.get(c.req.raw) ?? null;
    // Node's request and response (absent when the app is called without a server, as in `app.request`).
    const { outgoing, incoming } = (c.env ?? {}) as Partial<HttpBindings>;
    if (!outgoing || !incoming) {
      await reader?.cancel().catch(() => {});
      return;
    }
    outgoing.once('finish', () => {
      void discardRest(reader ?? c.req.raw.body?.getReader() ?? null, () => incoming.socket.destroy());
    });
  };
}

/** Drops what the client still sends, up to a cap and a grace time; past either, ends the connection. */
async function discardRest(
  reader: ReadableStreamDefaultReader<Uint8Array> | null,
  close: () => void,
): Promise<void> {
  if (!reader) return;
  const timer = setTimeout(close, DISCARD_GRACE_MS);
  timer.unref();
  let dropped = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
      if (dropped > DISCARD_MAX_BYTES) return close();
    }
  } catch {
    // The client went away: nothing left to settle.
  } finally {
    clearTimeout(timer);
  }
}
