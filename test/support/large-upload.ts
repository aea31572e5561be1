import { request } from 'node:http';

export interface LargeUploadResult {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  /** Bytes the service let through before it answered: an upper bound of what it read. */
  bytesSent: number;
}

/**
 * Sends `totalBytes` of zeros as a request body over a raw `node:http` request, 1 MiB a write and waiting for
 * `drain` (so a service that stops reading stops the upload too), with `Content-Length` or chunked. Stops
 * writing as soon as the answer arrives, as a careful client does, and rejects if the connection fails before
 * an answer was read (a reset or EPIPE instead of the answer).
 */
export function largeUpload(
  baseUrl: string,
  options: {
    method: string;
    path: string;
    headers: Record<string, string>;
    totalBytes: number;
    framing: 'content-length' | 'chunked';
  },
): Promise<LargeUploadResult> {
  const url = new URL(baseUrl);
  const chunk = Buffer.alloc(1024 * 1024);
  return new Promise((resolve, reject) => {
    let bytesSent = 0;
    let answered = false;
    const headers = { ...options.headers };
    if (options.framing === 'content-length') headers['Content-Length'] = String(options.totalBytes);
    else headers['Transfer-Encoding'] = 'chunked';
    const req = request(
      { host: url.hostname, port: url.port, method: options.method, path: options.path, headers },
      (res) => {
        answered = true;
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(parts).toString('utf8'),
            headers: res.headers,
            bytesSent,
          });
          req.destroy();
        });
        res.on('error', reject);
      },
    );
    req.on('error', (error) => {
      if (!answered) reject(new Error(`connection failed before the answer: ${error.message}`));
    });
    const pump = (): void => {
      while (!answered && bytesSent < options.totalBytes) {
        const part = chunk.subarray(0, Math.min(chunk.byteLength, options.totalBytes - bytesSent));
        bytesSent += part.byteLength;
        if (!req.write(part)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}
