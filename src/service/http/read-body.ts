import type { MiddlewareHandler } from 'hono';

// Requests whose body was refused unread: the rest of it is still on the socket, so the socket cannot be reused.
const refused = new WeakSet<Request>();

/** Answers to a request whose body was refused half-read close the connection (app-wide middleware). */
export function closeAfterRefusedBody(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (refused.has(c.req.raw)) c.header('Connection', 'close');
  };
}

/** Reads a request body, stopping as soon as it passes `maxBytes` (no buffering of huge uploads). */
export async function readBodyLimited(request: Request, maxBytes: number): Promise<Uint8Array | 'too_large'> {
  const declared = Number(request.headers.get('Content-Length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    refused.add(request);
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
      refused.add(request);
      await reader.cancel().catch(() => {});
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

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** UTF-8 text of `bytes`, or null when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}
