import { Hono } from 'hono';
import type { z } from 'zod';
import { apiRoutes } from '../../shared/api';
import { callerPersonId } from '../auth/bearer';
import { isValidPushToken } from '../connectors/devices';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson } from '../http/errors';
import { registerRoute, type InputPart } from '../http/register-route';

const INVALID_TOKEN = 'token_invalido';
const IDENTIFY = 'Identify the device by its push token: JSON {"token": "..."} or ?token=.';

/** A problem with the push token is `token_invalido`; with any other field `body_invalido`. */
function invalidRegistration(_part: InputPart, error: z.ZodError) {
  const onToken = error.issues.some((i) => i.path[0] === 'token');
  return {
    error: onToken ? INVALID_TOKEN : 'body_invalido',
    detalle: error.issues.map((i) => i.message).join('; '),
  };
}

/**
 * Push devices. A device is identified by its push token: POST registers `{token, plataforma, entorno}`
 * (`entorno` defaults to `production`), DELETE removes the device whose token is given in a JSON body
 * `{token}` or as `?token=` (our choice), answering 204 whether or not it was registered.
 */
export function deviceRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  registerRoute(
    app,
    apiRoutes.registerDevice,
    async (c, { body }) => {
      const { token, plataforma, entorno } = body;
      if (!isValidPushToken(token, plataforma)) {
        return errorJson(
          c,
          400,
          INVALID_TOKEN,
          plataforma === 'ios'
            ? 'An iOS push token is 64 or more hexadecimal characters.'
            : 'An Android push token is 32 to 4096 characters of letters, digits, "-", "_", ":" and ".".',
        );
      }
      await ctx.agentConfig.devices.register(callerPersonId(c), token, plataforma, entorno ?? 'production');
      return c.json({ ok: true });
    },
    { invalid: invalidRegistration },
  );

  registerRoute(
    app,
    apiRoutes.unregisterDevice,
    async (c, { query, body }) => {
      const token = query.token ?? body?.token;
      if (!token) return errorJson(c, 400, INVALID_TOKEN, IDENTIFY);
      await ctx.agentConfig.devices.unregister(callerPersonId(c), token);
      return c.body(null, 204);
    },
    { invalid: () => ({ error: INVALID_TOKEN, detalle: IDENTIFY }) },
  );

  return app;
}
