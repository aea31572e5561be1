import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { API_BASE } from '../../shared/api';
import type { AppEnv } from '../http/app-env';
import { errorJson } from '../http/errors';
import type { Claim } from './agent-leases';

/** Marks a request one process of the cluster forwards to another; its value is the cluster's secret. */
export const FORWARDED_HEADER = 'x-agentdesk-cluster';

const AGENT_PATH = new RegExp(`^${API_BASE}/(?:me/)?agents/([^/]+)(/.*)?$`);

/**
 * The agent whose machine a request may need, or null: every change to an agent or under it (messages,
 * cancel, permission answers, model, try, restart, files...) and the agent itself (its models come from
 * the machine). Reads below the agent (conversations, the event stream) are served by any process.
 */
export function machineAgent(method: string, path: string): string | null {
  const match = AGENT_PATH.exec(path);
  if (!match) return null;
  const below = match[2] ?? '';
  if (method === 'GET' || method === 'HEAD') return below === '' ? decodeURIComponent(match[1]!) : null;
  return decodeURIComponent(match[1]!);
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) and what the forwarding fetch sets itself. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];
const REQUEST_DROPPED = [...HOP_BY_HOP, 'host', 'content-length', 'expect'];
// fetch has already decoded the body and will frame it again.
const ANSWER_DROPPED = [...HOP_BY_HOP, 'content-encoding', 'content-length'];

/** A copy of `from` without `dropped` and without the headers its Connection header names (hop-by-hop too). */
function endToEnd(from: Headers, dropped: readonly string[]): Headers {
  const headers = new Headers(from);
  const named = (from.get('connection') ?? '').split(',').map((name) => name.trim().toLowerCase());
  for (const name of [...dropped, ...named]) if (name) headers.delete(name);
  return headers;
}

/** How long a holder may take to start its answer before the caller is told to try again. */
export const FORWARD_ANSWER_MS = 30_000;

const sameSecret = (given: string | undefined, secret: string): boolean => {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Runs a request that needs an agent's machine where that machine runs: here when this process holds (or
 * now takes) the agent's lease, else on the holder, forwarded over HTTP with the caller's own credentials
 * (the holder checks them again). The holder answers it itself whatever it believes about the lease, so a
 * request never travels twice. The body is streamed through once, never buffered (the holder applies its
 * limits), the answer streams back as it comes, and a caller that goes away cancels the forwarded request.
 * A holder that does not answer (dead, its lease not expired yet, or stalled past `answerMs`) or a lease
 * that cannot be read: 503 `reiniciando` with Retry-After, as a draining service answers.
 */
export function forwardToHolder(options: {
  claim: (agentId: string) => Promise<Claim>;
  secret: string;
  retryAfterSeconds: number;
  answerMs?: number;
}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const agentId = machineAgent(c.req.method, c.req.path);
    if (agentId === null) return next();
    if (sameSecret(c.req.header(FORWARDED_HEADER), options.secret)) return next();
    const busy = () => {
      c.header('Retry-After', String(options.retryAfterSeconds));
      return errorJson(
        c,
        503,
        'reiniciando',
        'The service process running this agent is not answering; try again in a few seconds.',
      );
    };
    let claim: Claim;
    try {
      claim = await options.claim(agentId);
    } catch {
      return busy();
    }
    if (claim.mine) return next();
    if (claim.url === null) return busy();
    const url = new URL(c.req.url);
    const headers = endToEnd(c.req.raw.headers, REQUEST_DROPPED);
    headers.set(FORWARDED_HEADER, options.secret);
    const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.raw.body !== null;
    const slow = new AbortController();
    const timer = setTimeout(() => slow.abort(), options.answerMs ?? FORWARD_ANSWER_MS);
    let answer: Response;
    try {
      answer = await fetch(`${claim.url}${url.pathname}${url.search}`, {
        method: c.req.method,
        headers,
        ...(hasBody ? { body: c.req.raw.body, duplex: 'half' } : {}),
        redirect: 'manual',
        signal: AbortSignal.any([slow.signal, c.req.raw.signal]),
      } as RequestInit);
    } catch {
      return busy();
    } finally {
      clearTimeout(timer);
    }
    return new Response(answer.body, {
      status: answer.status,
      headers: endToEnd(answer.headers, ANSWER_DROPPED),
    });
  };
}
