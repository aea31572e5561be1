import { Hono } from 'hono';
import { apiRoutes } from '../../shared/api';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { errorJson, refusalJson, type RefusalAnswers } from '../http/errors';
import { registerRoute } from '../http/register-route';
import { TranscriptionError, type TranscriptionErrorCode } from '../transcription/transcriber';

/** How each failed transcription reads on the wire. */
const transcriptionRefusals: RefusalAnswers<TranscriptionErrorCode> = {
  unavailable: [503, 'stt_no_disponible'],
  invalid_audio: [400, 'audio_invalido'],
  failed: [502, 'transcripcion_fallida'],
};

/** `POST /api/v2/me/stt`: raw `audio/*` bytes in, `{text}` out. */
export function transcriptionRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const transcriber = () => ctx.agentConfig.transcriber;
  registerRoute(
    app,
    apiRoutes.transcribe,
    async (c, { body }) => {
      if (body.byteLength === 0)
        return errorJson(c, 400, 'body_invalido', 'The body is empty: send the audio bytes.');
      try {
        return c.json({
          text: await transcriber().transcribe(body, (c.req.header('Content-Type') ?? '').trim()),
        });
      } catch (err) {
        if (err instanceof TranscriptionError) return refusalJson(c, err, transcriptionRefusals);
        throw err;
      }
    },
    {
      maxBytes: () => transcriber().maxBytes,
      tooLarge: (max) => ({
        error: 'audio demasiado grande',
        detalle: `Audio is capped at ${max} bytes on this plan.`,
      }),
    },
  );
  return app;
}
