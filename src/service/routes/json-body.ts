import type { Context } from 'hono';
import type { z } from 'zod';
import { describeZodError } from '../../shared/api';
import { errorJson } from '../http/errors';
import { decodeUtf8, readBodyLimited } from '../http/read-body';

export type BodyRead<T> = { ok: true; value: T } | { ok: false; response: Response };

/**
 * Reads a JSON object body (capped at `maxBytes`) and validates it with a contract schema. Failures are
 * the spec's 400 `{error, detalle}` (`error` given per route) or 413 when the body passes the cap.
 */
export async function readJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  opts: { error?: string; maxBytes: number; tooLarge?: { error: string; detalle: string } },
): Promise<BodyRead<z.infer<S>>> {
  const bytes = await readBodyLimited(c.req.raw, opts.maxBytes);
  if (bytes === 'too_large') {
    const tooLarge = opts.tooLarge ?? {
      error: 'body_demasiado_grande',
      detalle: 'The request body is too large.',
    };
    return { ok: false, response: errorJson(c, 413, tooLarge.error, tooLarge.detalle) };
  }
  const text = decodeUtf8(bytes);
  let data: unknown;
  try {
    data = text === null ? undefined : JSON.parse(text);
  } catch {
    data = undefined;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, response: errorJson(c, 400, 'body_invalido', 'The body must be a JSON object.') };
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    return {
      ok: false,
      response: errorJson(c, 400, opts.error ?? 'body_invalido', describeZodError(parsed.error)),
    };
  }
  return { ok: true, value: parsed.data };
}
