import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A provider's models list over real HTTP on 127.0.0.1, as OpenAI's protocol (`GET /v1/models`, Bearer key)
 * and Anthropic's (`GET /v1/models`, `x-api-key` with `anthropic-version`) answer it: 401 for any other key.
 * It records every request, so a test sees where a key went and how. The chat side of a provider is
 * test/support/scripted-providers.
 */
export interface ListServer {
  /** The base URL a provider's SDK takes (ends in `/v1`). */
  baseURL: string;
  requests: { path: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

export async function startListServer(options: {
  protocol: 'openai' | 'anthropic';
  apiKey: string;
  models: string[];
}): Promise<ListServer> {
  const requests: ListServer['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ path: req.url ?? '/', headers: req.headers });
    const key =
      options.protocol === 'anthropic'
        ? req.headers['x-api-key']
        : /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (key !== options.apiKey) return send(401, { error: { message: 'invalid key' } });
    if (req.method !== 'GET' || !/^\/v1\/models(\?|$)/.test(req.url ?? '')) return send(404, {});
    const data = options.models.map((id) =>
      options.protocol === 'anthropic'
        ? { type: 'model', id, display_name: `Model ${id}` }
        : { id, object: 'model' },
    );
    send(200, options.protocol === 'anthropic' ? { data, has_more: false } : { object: 'list', data });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An address where nothing answers: a port bound a moment ago and closed again. */
export async function deadAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

/** The providers' key variables, taken out of this process's environment for a test and put back after. */
export function withoutProviderEnvironment(): () => void {
  const names = [
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_BASE_URL',
    'OPENAI_API_KEY',
    'OPENAI_BASE_URL',
    'GEMINI_API_KEY',
    'GOOGLE_API_KEY',
    'OLLAMA_HOST',
  ];
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  for (const name of names) delete process.env[name];
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
