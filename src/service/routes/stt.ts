import { Hono } from 'hono';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson } from '../http/errors';
import { readBodyLimited } from '../http/read-body';
import { SttError } from '../stt/transcriber';

/** `POST /api/v2/me/stt`: raw `audio/*` bytes in, `{text}` out. */
export function sttRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/api/v2/me/stt', async (c) => {
    const stt = ctx.agentConfig.stt;
    const contentType = (c.req.header('Content-Type') ?? '').trim();
    if (!/^audio\/[a-z0-9.+-]+/i.test(contentType)) {
      return errorJson(c, 400, 'body_invalido', 'Send the audio as raw bytes with an audio/* Content-Type.');
    }
    const audio = await readBodyLimited(c.req.raw, stt.maxBytes);
    if (audio === 'too_large') {
      return errorJson(
        c,
        413,
        'audio demasiado grande',
        `Audio is capped at ${stt.maxBytes} bytes on this plan.`,
      );
    }
    if (audio.byteLength === 0)
      return errorJson(c, 400, 'body_invalido', 'The body is empty: send the audio bytes.');
    try {
      return c.json({ text: await stt.transcribe(audio, contentType) });
    } catch (err) {
      if (err instanceof SttError) return errorJson(c, err.status, err.code, err.message);
      throw err;
    }
  });
  return app;
}
