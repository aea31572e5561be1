import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ScriptedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (request: ScriptedRequest, res: ServerResponse) => void | Promise<void>;

/**
 * A small real HTTP server on 127.0.0.1 whose answers a test scripts: for behaviour the local
 * service does not produce on demand (a 429, a server that goes silent, a malformed event).
 */
export async function startScriptedServer(handler: Handler): Promise<{
  url: string;
  requests: ScriptedRequest[];
  close(): Promise<void>;
}> {
  const requests: ScriptedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      void handler(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
