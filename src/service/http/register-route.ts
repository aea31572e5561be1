import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { JSON_BODY_MAX, createRouteMatcher, describeZodError, type RouteSpec } from '../../shared/api';
import type { AppEnv } from './app-env';
import { errorJson } from './errors';
import { readBodyLimited, readJson } from './read-body';

type Parsed<S> = S extends z.ZodType ? z.infer<S> : Record<string, never>;
type BodyOf<B> = B extends { kind: 'json' | 'form'; schema: infer S extends z.ZodType }
  ? B extends { required: true }
    ? z.infer<S>
    : z.infer<S> | undefined
  : B extends { kind: 'octet-stream' | 'audio' }
    ? Uint8Array
    : undefined;

/** What a handler receives: the entry's path params, query and body, already checked against its schemas. */
export interface RouteInput<R extends RouteSpec> {
  params: Parsed<R['request']['params']>;
  query: Parsed<R['request']['query']>;
  body: BodyOf<R['request']['body']>;
}

export type RouteHandler<R extends RouteSpec> = (
  c: Context<AppEnv>,
  input: RouteInput<R>,
) => Response | Promise<Response>;

export type InputPart = 'params' | 'query' | 'body';
export interface ErrorAnswer {
  error: string;
  detalle: string;
}

export interface RouteOptions {
  /** Runs before any input is read (e.g. "this agent has no machine"); a Response refuses the request. */
  before?: (c: Context<AppEnv>) => Response | null | Promise<Response | null>;
  /** The 400 for input that fails the schemas: an `error` code, or the whole answer. Default `body_invalido`. */
  invalid?: string | ((part: InputPart, error: z.ZodError, value: unknown) => ErrorAnswer);
  /** The 413 answer. Default `body_demasiado_grande`. */
  tooLarge?: (maxBytes: number) => ErrorAnswer;
  /** A cap known only at run time (configuration, plan); default the entry's `maxBytes`. */
  maxBytes?: () => number;
  /** The handler reads its input itself (pages and OAuth forms answer bad input in their own shapes). */
  unchecked?: true;
}

/** `/api/v2/agents/{id}/files/{path}` → `/api/v2/agents/:id/files/*` (a final `{path}` spans segments). */
export function honoPath(template: string): string {
  return template.replace(/\/\{path\}$/, '/*').replace(/\{(\w+)\}/g, ':$1');
}

/**
 * Registers `handler` on the route entry's method and path. Before the handler runs, the path params, the
 * query and the body are checked against the entry's schemas, and the body is read within its cap: bad input
 * is the spec's 400 `{error, detalle}`, a body over the cap 413.
 */
export function registerRoute<const R extends RouteSpec>(
  app: Hono<AppEnv>,
  route: R,
  handler: RouteHandler<R>,
  options: RouteOptions = {},
): void {
  if (route.request.body?.kind === 'form' && !options.unchecked) {
    throw new Error(`${route.operationId}: a form body is read by its handler; register it unchecked`);
  }
  const { matchRoute } = createRouteMatcher([route]);
  app.on(route.method, honoPath(route.path), async (c) => {
    const refusal = await options.before?.(c);
    if (refusal) return refusal;
    if (options.unchecked) return handler(c, { params: {}, query: {}, body: undefined } as RouteInput<R>);

    const invalid = (part: InputPart, error: z.ZodError, value: unknown): Response => {
      const answer =
        typeof options.invalid === 'function'
          ? options.invalid(part, error, value)
          : { error: options.invalid ?? 'body_invalido', detalle: describeZodError(error) };
      return errorJson(c, 400, answer.error, answer.detalle);
    };

    const { params: paramsSchema, query: querySchema } = route.request;
    // Under /api/v2 the guard has matched the path already.
    const rawParams = paramsSchema
      ? (c.get('auth')?.params ?? matchRoute(c.req.method, c.req.path)?.params)
      : {};
    // A public path whose parameter is not UTF-8 names nothing that could exist.
    if (paramsSchema && !rawParams) return errorJson(c, 404, 'not_found', 'No such resource.');
    const params = paramsSchema?.safeParse(rawParams ?? {}) ?? { success: true, data: {} };
    if (!params.success) return invalid('params', params.error, rawParams);
    const repeated = querySchema ? repeatedQueryParameter(c, querySchema) : undefined;
    if (repeated !== undefined) {
      return errorJson(c, 400, 'body_invalido', `The query parameter ${repeated} is given more than once.`);
    }
    const rawQuery = querySchema ? c.req.query() : {};
    const query = querySchema?.safeParse(rawQuery) ?? { success: true, data: {} };
    if (!query.success) return invalid('query', query.error, rawQuery);

    const body = await readRouteBody(c, route, options);
    if (body instanceof Response) return body;
    const spec = route.request.body;
    if (spec?.schema && (body !== undefined || spec.required)) {
      const parsed = spec.schema.safeParse(body);
      if (!parsed.success) return invalid('body', parsed.error, body);
      return handler(c, { params: params.data, query: query.data, body: parsed.data } as RouteInput<R>);
    }
    return handler(c, { params: params.data, query: query.data, body } as RouteInput<R>);
  });
}

/** A parameter of the route's query given twice: ambiguous, so refused rather than guessed (first or last). */
function repeatedQueryParameter(c: Context<AppEnv>, schema: z.ZodType): string | undefined {
  const shape = (schema as { shape?: Record<string, unknown> }).shape ?? {};
  return Object.entries(c.req.queries()).find(
    ([name, values]) => values.length > 1 && Object.hasOwn(shape, name),
  )?.[0];
}

/** The body as the entry declares it: JSON (an object), raw bytes or `audio/*` bytes; or a refusal. */
async function readRouteBody(c: Context<AppEnv>, route: RouteSpec, options: RouteOptions): Promise<unknown> {
  const spec = route.request.body;
  if (!spec) return undefined;
  const maxBytes = options.maxBytes?.() ?? spec.maxBytes ?? JSON_BODY_MAX;
  const tooLarge = () => {
    const answer = options.tooLarge?.(maxBytes) ?? {
      error: 'body_demasiado_grande',
      detalle: 'The request body is too large.',
    };
    return errorJson(c, 413, answer.error, answer.detalle);
  };
  if (spec.kind === 'json') {
    const read = await readJson(c.req.raw, maxBytes);
    if (!read.ok) return read.status === 413 ? tooLarge() : errorJson(c, 400, 'body_invalido', read.detalle);
    if (read.value === undefined && !spec.required) return undefined;
    if (typeof read.value !== 'object' || read.value === null || Array.isArray(read.value)) {
      return errorJson(c, 400, 'body_invalido', 'The body must be a JSON object.');
    }
    return read.value;
  }
  // "Raw bytes (not multipart)": a form's boundaries and part headers would be stored as the file.
  if (/^\s*multipart\//i.test(c.req.header('Content-Type') ?? '')) {
    return errorJson(c, 400, 'body_invalido', 'Send the file as its raw bytes, not as a multipart form.');
  }
  if (spec.kind === 'audio' && !/^audio\/[a-z0-9.+-]+/i.test(c.req.header('Content-Type') ?? '')) {
    return errorJson(c, 400, 'body_invalido', 'Send the audio as raw bytes with an audio/* Content-Type.');
  }
  const bytes = await readBodyLimited(c.req.raw, maxBytes);
  return bytes === 'too_large' ? tooLarge() : bytes;
}
