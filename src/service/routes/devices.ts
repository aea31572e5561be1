import { Hono } from 'hono';
import { DevicesBody, DevicesDeleteBody } from '../../shared/api';
import { callerPersonId } from '../auth/bearer';
import { isValidPushToken } from '../connectors/devices';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson } from '../http/errors';
import { decodeUtf8, readBodyLimited } from '../http/read-body';

const BODY_MAX = 16 * 1024;

async function readObject(request: Request): Promise<Record<string, unknown> | null> {
  const bytes = await readBodyLimited(request, BODY_MAX);
  if (bytes === 'too_large') return null;
  const text = decodeUtf8(bytes);
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Push devices. A device is identified by its push token: POST registers `{token, plataforma, entorno}`
 * (`entorno` defaults to `production`), DELETE removes the device whose token is given in a JSON body
 * `{token}` or as `?token=` (our choice), answering 204 whether or not it was registered.
 */
export function deviceRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const invalid = 'token_invalido';

  app.post('/api/v2/me/devices', async (c) => {
    const body = await readObject(c.req.raw);
    if (!body) return errorJson(c, 400, 'body_invalido', 'The body must be a JSON object.');
    const parsed = DevicesBody.safeParse(body);
    if (!parsed.success) {
      const onToken = parsed.error.issues.some((i) => i.path[0] === 'token');
      return errorJson(
        c,
        400,
        onToken ? invalid : 'body_invalido',
        parsed.error.issues.map((i) => i.message).join('; '),
      );
    }
    const { token, plataforma, entorno } = parsed.data;
    if (!isValidPushToken(token, plataforma)) {
      return errorJson(
        c,
        400,
        invalid,
        plataforma === 'ios'
          ? 'An iOS push token is 64 or more hexadecimal characters.'
          : 'An Android push token is 32 to 4096 characters of letters, digits, "-", "_", ":" and ".".',
      );
    }
    ctx.agentConfig.devices.register(callerPersonId(c), token, plataforma, entorno ?? 'production');
    return c.json({ ok: true });
  });

  app.delete('/api/v2/me/devices', async (c) => {
    const fromQuery = c.req.query('token');
    const body = fromQuery ? { token: fromQuery } : await readObject(c.req.raw);
    const parsed = DevicesDeleteBody.safeParse(body ?? {});
    if (!parsed.success)
      return errorJson(
        c,
        400,
        invalid,
        'Identify the device by its push token: JSON {"token": "..."} or ?token=.',
      );
    ctx.agentConfig.devices.unregister(callerPersonId(c), parsed.data.token);
    return c.body(null, 204);
  });

  return app;
}
