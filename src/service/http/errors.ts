import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Refusal } from '../outcome';
import { printablePath } from './request-log';

/** The spec's Error shape, `{error, detalle}`, with `Cache-Control: no-store`. */
export function errorJson(
  c: Context,
  status: ContentfulStatusCode,
  error: string,
  detalle: string,
): Response {
  return c.json({ error, detalle }, status, { 'Cache-Control': 'no-store' });
}

/** How a route answers each refusal a service may give: its status and the wire's error code. */
export type RefusalAnswers<Code extends string> = {
  readonly [C in Code]: readonly [status: ContentfulStatusCode, error: string];
};

/** A service's refusal as the spec's Error shape, `{error, detalle}`, by the route's table of answers. */
export function refusalJson<Code extends string>(
  c: Context,
  refusal: Refusal<Code>,
  answers: RefusalAnswers<Code>,
): Response {
  const [status, error] = answers[refusal.code];
  return errorJson(c, status, error, refusal.message);
}

/** Last resort: a thrown error becomes a plain Error body; HTTP exceptions keep their status. */
export function handleError(log: (line: string) => void) {
  return (error: Error, c: Context): Response => {
    if (error instanceof HTTPException) {
      const status = error.status;
      if (status === 413) return errorJson(c, 413, 'body_demasiado_grande', 'The request body is too large.');
      if (status < 500) return errorJson(c, status, 'body_invalido', error.message || 'Invalid request.');
    }
    log(`error ${c.req.method} ${printablePath(c.req.path)}: ${error.stack ?? error.message}`);
    return errorJson(c, 500, 'error_interno', 'The service failed while answering; see its log.');
  };
}

/** 404 in the API's error shape (also for paths the service does not know). */
export function notFound(c: Context, detalle = 'No such resource.'): Response {
  return c.json({ error: 'not_found', detalle }, 404, { 'Cache-Control': 'no-store' });
}

/** 405 with the methods the path takes. */
export function methodNotAllowed(c: Context, allow: readonly string[]): Response {
  return c.json({ error: 'method_not_allowed' }, 405, {
    Allow: allow.join(', '),
    'Cache-Control': 'no-store',
  });
}
