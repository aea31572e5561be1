import { ErrorBody } from '../errors';
import type { RouteSpec, ResponseSpec } from '../route-types';
import { API_BASE } from './paths';

/**
 * The answers the service's guards give before any handler runs (src/service/http/ and the /api/v2 guard),
 * added to each entry they apply to, so /openapi.yaml lists them where a generated client looks: per
 * operation, by status.
 */

/** Every path: the DNS-rebinding guard (src/service/http/host-guard.ts). */
export const misdirected: ResponseSpec = {
  description:
    'The `Host` header, or an absolute-form request target, does not name this service by a loopback name (`127.0.0.1`, `localhost`, `[::1]`) with its port: `host_no_permitido` (our choice, against DNS rebinding).',
  body: ErrorBody,
};

/** Every path: a page of another site, named by the browser in `Origin` (src/service/http/origin-guard.ts). */
const FOREIGN_ORIGIN =
  'A request from a page of another site (an `Origin` that is not a loopback one, or `null` from a sandboxed frame), preflights included: JSON `origen_no_permitido`, do not retry (our choice). Clients outside a browser send no `Origin`.';

const DOT_SEGMENT =
  '`ruta_invalida`: the request target has a `.` or `..` segment (plain or `%2e`-escaped, between `/` or `\\`), or a path segment that is not UTF-8 or holds control characters; checked after the bearer (our choice).';
const REPEATED_QUERY =
  '`body_invalido`: a query parameter of this route is given more than once (our choice: refused rather than guessed).';
const MULTIPART =
  '`body_invalido`: a `multipart/*` body where raw bytes are expected (the form’s boundaries would be stored as the file).';

export interface GuardOptions {
  /** The entry is registered `unchecked`: its handler reads its own query (OAuth, signed URLs). */
  readsOwnQuery?: true;
}

type Answers = Record<number, ResponseSpec | undefined>;

/** Adds `spec` under `status`, or folds it into the entry's own answer there (one status, one description). */
function add(responses: Answers, status: number, spec: ResponseSpec): void {
  const own = responses[status];
  if (!own) {
    responses[status] = spec;
    return;
  }
  const merged: ResponseSpec = { ...own, description: `${own.description} ${spec.description}` };
  // A plain-text answer (the scope 403) that the guard gives as JSON: the status carries both media types.
  if (own.body === 'text' && spec.body !== 'text') merged.alsoJson = spec.body as ResponseSpec['alsoJson'];
  responses[status] = merged;
}

/** The entry's responses with the guards' answers that reach it. */
export function withGuardAnswers(spec: RouteSpec, responses: Answers, options: GuardOptions = {}): Answers {
  const out = { ...responses };
  const body = spec.request.body;
  if (spec.path.startsWith(`${API_BASE}/`)) add(out, 400, { description: DOT_SEGMENT, body: ErrorBody });
  if (spec.request.query && !options.readsOwnQuery) {
    add(out, 400, { description: REPEATED_QUERY, body: ErrorBody });
  }
  if (body && (body.kind === 'octet-stream' || body.kind === 'audio')) {
    add(out, 400, { description: MULTIPART, body: ErrorBody });
  }
  add(out, 403, { description: FOREIGN_ORIGIN, body: ErrorBody });
  add(out, 421, misdirected);
  return out;
}
