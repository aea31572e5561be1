import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Refusal } from '../outcome';
import { diskFullCode } from '../../shared/storage/disk-full';
import { diskFullWords } from '../../shared/words/disk-full-words';
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

/**
 * Last resort: a thrown error becomes a plain Error body; HTTP exceptions keep their status. A write its disk
 * refused (full, or over quota) is 507 `disco_lleno` naming the disk, with `Retry-After`: every write goes
 * through a temp file and a rename or a store transaction, so what was there is kept, and the same request
 * succeeds once there is space (issue 38).
 */
export function handleError(log: (line: string) => void, disk: ServiceDisk) {
  return (error: Error, c: Context): Response => {
    if (error instanceof HTTPException) {
      const status = error.status;
      if (status === 413) return errorJson(c, 413, 'body_demasiado_grande', 'The request body is too large.');
      if (status < 500) return errorJson(c, status, 'body_invalido', error.message || 'Invalid request.');
    }
    const full = diskFullCode(error);
    if (full) {
      log(`disk full ${c.req.method} ${printablePath(c.req.path)}: ${error.message}`);
      c.header('Retry-After', String(DISK_FULL_RETRY_SECONDS));
      return errorJson(c, 507, 'disco_lleno', diskFullDetalle(full, disk));
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

const DISK_FULL_RETRY_SECONDS = 30;

/** Where the service keeps its data; a public server names no folder of its machine to the people it serves. */
export interface ServiceDisk {
  dataDir: string;
  isPublic: boolean;
}

/** Which disk: PostgreSQL's own (53100), else the one holding `--data` (the SQLite store, workspaces, library). */
function diskFullDetalle(code: string, { dataDir, isPublic }: ServiceDisk): string {
  if (isPublic) {
    const what = code === '53100' ? "the server's database" : "the server's data";
    return `The disk holding ${what} is full. Nothing was changed; send this again once the server's owner has freed some space.`;
  }
  const disk =
    code === '53100'
      ? "The disk of the service's PostgreSQL database is full."
      : diskFullWords("the service's data", dataDir);
  return `${disk} Nothing was changed; free some space there and send this again.`;
}
