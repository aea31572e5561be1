import { readFile } from 'node:fs/promises';
import { join, normalize, resolve, sep } from 'node:path';
import type { Protocol } from 'electron';
import { rendererContentType } from '../core/renderer-content-types';
import { withCspMeta } from '../core/renderer-csp';
import { contentSecurityPolicy } from './window-options';

/**
 * The app is served from `agentdesk://app/`, not `file://`: under file:// a CSP of 'self' matches every
 * local file, and any file on disk would count as "our page". Here 'self' is the built renderer alone.
 */
export const APP_SCHEME = 'agentdesk';
export const APP_ORIGIN = `${APP_SCHEME}://app`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/** Registered before the app is ready: a standard, secure scheme (so 'self', fetch and storage work). */
export const appSchemePrivileges = [
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
  },
] as const;

/** The file of `rendererDir` that `url` names, or null (another host, a malformed escape, or outside it). */
export function appFileFor(rendererDir: string, url: string): string | null {
  let parsed: URL;
  let pathname: string;
  try {
    parsed = new URL(url);
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== 'app') return null;
  const base = resolve(rendererDir);
  const file = normalize(join(base, pathname === '/' ? 'index.html' : pathname));
  return file.startsWith(base + sep) ? file : null;
}

/** One answer of the app protocol: the file with its type and the strict CSP, or a 404. */
export async function answerAppRequest(rendererDir: string, url: string): Promise<Response> {
  const file = appFileFor(rendererDir, url);
  const bytes = file ? await readFile(file).catch(() => null) : null;
  if (!file || !bytes) return new Response('Not found', { status: 404 });
  // The page's CSP meta element says what the header says (one policy, core/renderer-csp.ts).
  const body = file.endsWith('.html')
    ? withCspMeta(bytes.toString('utf8'), contentSecurityPolicy)
    : new Uint8Array(bytes);
  return new Response(body, {
    headers: {
      'Content-Type': rendererContentType(file),
      'Content-Security-Policy': contentSecurityPolicy,
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** Serves the built renderer on the app scheme (call once the app is ready). */
export function serveAppProtocol(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => answerAppRequest(rendererDir, request.url));
}
