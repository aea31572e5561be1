import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join, normalize, resolve, sep } from 'node:path';
import { rendererContentType } from '../core/renderer-content-types';
import { rendererCsp, withCspMeta } from '../core/renderer-csp';

/** The same CSP the Electron shell applies (core/renderer-csp.ts), plus the bridge's own WebSocket origin. */
export function browserModeCsp(extraConnect: string[] = []): string {
  return rendererCsp(extraConnect);
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The page server only reads files, so anything but GET/HEAD is 405 (a form or a `text/plain` POST from
 * another site changes nothing and learns nothing). Another site's subresource or fetch
 * (`Sec-Fetch-Site: cross-site` / `same-site`, anything but a navigation) is 403: opening the printed address
 * from a link still works. Null when the request may be served.
 */
function crossSiteRefusal(method: string | undefined, headers: IncomingHttpHeaders): 403 | 405 | null {
  if (method !== 'GET' && method !== 'HEAD') return 405;
  const site = headers['sec-fetch-site'];
  if ((site === 'cross-site' || site === 'same-site') && headers['sec-fetch-mode'] !== 'navigate') return 403;
  return null;
}

/**
 * Vite names every built asset by its content's hash (`assets/index-Zr1aIbv-.js`), so a name never
 * changes content: the browser keeps those for good and a reload reads them from its cache (with the V8
 * code cache), not from this server. Everything else, index.html first, is asked for again each time.
 */
function cacheControl(base: string, path: string): string {
  return path.startsWith(join(base, 'assets') + sep) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

export interface StaticServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Serves the built renderer from `root` on 127.0.0.1; unknown paths fall back to index.html.
 * `csp` may be a function of the server's own origin (known only once it listens).
 */
export async function serveRenderer(
  root: string,
  port = 0,
  csp: string | ((origin: string) => string) = browserModeCsp(),
): Promise<StaticServer> {
  const base = resolve(root);
  let policy = typeof csp === 'string' ? csp : '';
  let ownPort = port;
  const server = createServer(async (req, res) => {
    // DNS rebinding: only this server's loopback names, with its port.
    if (!LOOPBACK_HOSTS.some((name) => req.headers.host?.toLowerCase() === `${name}:${ownPort}`)) {
      res.writeHead(421).end();
      return;
    }
    const refusal = crossSiteRefusal(req.method, req.headers);
    if (refusal) {
      res.writeHead(refusal, {
        'Cache-Control': 'no-store',
        ...(refusal === 405 ? { Allow: 'GET, HEAD' } : {}),
      });
      res.end();
      return;
    }
    let path: string;
    try {
      path = normalize(join(base, decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname)));
    } catch {
      res.writeHead(400).end(); // `/%`: a malformed escape is the request's fault, never a crash
      return;
    }
    if (path !== base && !path.startsWith(base + sep)) {
      res.writeHead(400).end();
      return;
    }
    const info = await stat(path).catch(() => undefined);
    if (!info || info.isDirectory()) path = join(base, 'index.html');
    res.writeHead(200, {
      'Content-Type': rendererContentType(path),
      'Content-Security-Policy': policy,
      'X-Content-Type-Options': 'nosniff',
      // Another site may neither embed these files (a script tag reading our bundle) nor frame the page.
      'Cross-Origin-Resource-Policy': 'same-origin',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': cacheControl(base, path),
    });
    // The page's CSP meta element says what the header says (one policy, core/renderer-csp.ts).
    if (path.endsWith('.html')) {
      const html = await readFile(path, 'utf8').catch(() => undefined);
      if (html === undefined) res.destroy();
      else res.end(req.method === 'HEAD' ? undefined : withCspMeta(html, policy));
      return;
    }
    createReadStream(path)
      .on('error', () => res.destroy())
      .pipe(res);
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  ownPort = actualPort;
  if (typeof csp === 'function') policy = csp(`http://127.0.0.1:${actualPort}`);
  return {
    url: `http://127.0.0.1:${actualPort}/`,
    server,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
