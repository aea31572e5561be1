import type { LibraryMethods } from '../../../shared/bridge';
import { fail } from '../plumbing/call-results';
import type { WithApi } from '../plumbing/with-api';

/** Audio the host will pass on; the server's plan cap (413) is usually lower. */
const MAX_AUDIO_BYTES = 100 * 1024 * 1024;

/** Transcription: a recording checked here, then sent as raw bytes with its audio/* type. */
export function createTranscriptionMethods(withApi: WithApi): Pick<LibraryMethods, 'transcribe'> {
  return {
    async transcribe(input) {
      if (typeof input !== 'object' || input === null || typeof input.audioBase64 !== 'string')
        return fail('invalid_argument', 'No audio was given.');
      if (typeof input.mimeType !== 'string' || !/^audio\/[\w.+-]+/i.test(input.mimeType))
        return fail('invalid_argument', 'The recording needs an audio/* type.');
      const audio = new Uint8Array(Buffer.from(input.audioBase64, 'base64'));
      if (audio.byteLength === 0) return fail('invalid_argument', 'The recording is empty.');
      if (audio.byteLength > MAX_AUDIO_BYTES) return fail('too_large', 'The recording is too long.');
      return withApi((api) => api.transcribe(audio, input.mimeType));
    },
  };
}
