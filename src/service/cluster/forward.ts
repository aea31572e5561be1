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

/** Hop-by-hop headers and what the forwarding fetch sets itself. */
const DROPPED = [
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'expect',
];

/**
 * Runs a request that needs an agent's machine where that machine runs: here when this process holds (or
 * now takes) the agent's lease, else on the holder, forwarded over HTTP with the caller's own credentials
 * (the holder checks them again). The holder answers it itself whatever it believes about the lease, so a
 * request never travels twice. A holder that does not answer yet is dead and its lease not expired: 503
 * with Retry-After, as a draining service answers.
 */
export function forwardToHolder(options: {
  claim: (agentId: string) => Promise<Claim>;
  secret: string;
  retryAfterSeconds: number;
}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const agentId = machineAgent(c.req.method, c.req.path);
    if (agentId === null) return next();
    if (c.req.header(FORWARDED_HEADER) === options.secret) return next();
    const claim = await options.claim(agentId);
    if (claim.mine) return next();
    const busy = () => {
      c.header('Retry-After', String(options.retryAfterSeconds));
      return errorJson(
        c,
        503,
        'reiniciando',
        'The service process running this agent is not answering; try again in a few seconds.',
      );
    };
    if (claim.url === null) return busy();
    const url = new URL(c.req.url);
    const headers = new Headers(c.req.raw.headers);
    for (const name of DROPPED) headers.delete(name);
    headers.set(FORWARDED_HEADER, options.secret);
    const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD';
    let answer: Response;
    try {
      answer = await fetch(`${claim.url}${url.pathname}${url.search}`, {
        method: c.req.method,
        headers,
        body: hasBody ? await c.req.raw.arrayBuffer() : undefined,
        redirect: 'manual',
      });
    } catch {
      return busy();
    }
    const back = new Headers(answer.headers);
    // fetch has already decoded the body and will frame it again.
    for (const name of ['content-encoding', 'content-length', 'transfer-encoding', 'connection'])
      back.delete(name);
    return new Response(answer.body, { status: answer.status, headers: back });
  };
}
