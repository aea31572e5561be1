import proxyaddr from 'proxy-addr';
import { isIP } from 'node:net';
import type { ServiceConfig } from './config';

/** A setting in config.json or a flag that cannot be served as written; the CLI prints it and exits 1. */
export class ServiceConfigError extends Error {}

/** How the service is reached: by loopback only (the default) or under a public name behind a proxy. */
export interface Serving {
  /** Interface the HTTP server listens on; `127.0.0.1` unless `bind` says otherwise. */
  readonly bind: string;
  /** `https://agents.example.com` (no trailing slash) when `publicUrl` is set; links and the issuer use it. */
  readonly publicOrigin: string | null;
  /** Reachable by other people's computers: a public name that is not loopback. Sign-up is closed then. */
  readonly isPublic: boolean;
  /** Served over https: cookies are `Secure` and `__Host-` prefixed. */
  readonly secure: boolean;
  /** Host header values (lowercase) naming the public origin; empty when loopback only. */
  readonly publicHosts: ReadonlySet<string>;
  /** Whether a peer address is a proxy whose X-Forwarded-* headers are believed. */
  readonly trustsProxy: (address: string, hop: number) => boolean;
}

const LOOPBACK_HOST = /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/i;

/** Reads `publicUrl`, `trustedProxies` and `bind` from the config (flags included); throws on a bad one. */
export function readServing(config: ServiceConfig): Serving {
  const origin = readPublicUrl(config.publicUrl);
  const trusted = readTrustedProxies(config.trustedProxies);
  const bind = config.bind === undefined ? '127.0.0.1' : String(config.bind);
  if (isIP(bind) === 0) throw new ServiceConfigError(`bind must be an IP address, not "${bind}".`);
  const isPublic = origin !== null && !LOOPBACK_HOST.test(origin.hostname);
  return {
    bind,
    publicOrigin: origin?.origin ?? null,
    isPublic,
    secure: origin?.protocol === 'https:',
    publicHosts: origin ? hostValues(origin) : new Set(),
    trustsProxy: trusted.length > 0 ? proxyaddr.compile(trusted) : () => false,
  };
}

function readPublicUrl(value: unknown): URL | null {
  if (value === undefined || value === '' || value === false) return null;
  const text = String(value);
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new ServiceConfigError(
      `publicUrl must be an absolute https:// URL, such as https://agents.example.com; got "${text}".`,
    );
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/')
    throw new ServiceConfigError(
      `publicUrl names only the scheme, host and port (${url.origin}); a path, query or user name is not served.`,
    );
  if (url.protocol === 'http:' && !LOOPBACK_HOST.test(url.hostname))
    throw new ServiceConfigError(
      `publicUrl ${url.origin} is plain http: passwords and tokens would cross the network readable. ` +
        'Use https:// (a reverse proxy such as Caddy or nginx terminates TLS), or a loopback name.',
    );
  return url;
}

/** `"10.0.0.2, 10.0.1.0/24"`, `["loopback"]` (proxy-addr's names: loopback, linklocal, uniquelocal) or absent. */
function readTrustedProxies(value: unknown): string[] {
  if (value === undefined || value === false) return [];
  const list = (Array.isArray(value) ? value.map(String) : String(value).split(','))
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    proxyaddr.compile(list);
  } catch (error) {
    throw new ServiceConfigError(
      `trustedProxies takes IP addresses, CIDR ranges or loopback/linklocal/uniquelocal: ${(error as Error).message}.`,
    );
  }
  return list;
}

/** What a browser or proxy writes in Host for this origin: the port only when it is not the scheme's default. */
function hostValues(origin: URL): Set<string> {
  const defaultPort = origin.protocol === 'https:' ? '443' : '80';
  const name = origin.hostname.toLowerCase();
  return new Set([origin.host.toLowerCase(), `${name}:${origin.port || defaultPort}`]);
}
