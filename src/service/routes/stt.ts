import { Hono } from 'hono';
import { apiRoutes } from '../../shared/api';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson } from '../http/errors';
import { registerRoute } from '../http/register-route';
import { SttError } from '../stt/transcriber';

/** `POST /api/v2/me/stt`: raw `audio/*` bytes in, `{text}` out. */
export function sttRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const stt = () => ctx.agentConfig.stt;
  registerRoute(
    app,
    apiRoutes.transcribe,
    async (c, { body }) => {
      if (body.byteLength === 0)
        return errorJson(c, 400, 'body_invalido', 'The body is empty: send the audio bytes.');
      try {
        return c.json({ text: await stt().transcribe(body, (c.req.header('Content-Type') ?? '').trim()) });
      } catch (err) {
        if (err instanceof SttError) return errorJson(c, err.status, err.code, err.message);
        throw err;
      }
    },
    {
      maxBytes: () => stt().maxBytes,
      tooLarge: (max) => ({
        error: 'audio demasiado grande',
        detalle: `Audio is capped at ${max} bytes on this plan.`,
      }),
    },
  );
  return app;
}
