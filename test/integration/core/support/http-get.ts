import { request } from 'node:http';
import type { Agent, IncomingHttpHeaders } from 'node:http';

export interface PlainResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One GET with node:http, redirects NOT followed, so tests see exactly what a browser would receive. */
export function httpGet(
  url: string,
  options: { agent?: Agent; method?: string } = {},
): Promise<PlainResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', agent: options.agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Follows redirects like a browser would, returning every hop. */
export async function followRedirects(
  url: string,
  maxHops = 10,
): Promise<{ url: string; response: PlainResponse }[]> {
  const hops: { url: string; response: PlainResponse }[] = [];
  let current = url;
  for (let i = 0; i < maxHops; i += 1) {
    const response = await httpGet(current);
    hops.push({ url: current, response });
    const location = response.headers.location;
    if (response.status < 300 || response.status >= 400 || !location) return hops;
    current = new URL(location, current).href;
  }
  throw new Error(`Too many redirects from ${url}`);
}
