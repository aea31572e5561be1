import { LIMITS } from '../limits';
import { FileUploadQuery, IdParams } from '../requests';
import { Archivo } from '../resources';
import { FileDeletedResult, FilesResponse, FileUrlResponse, SttResult } from '../responses';
import { MB, defineRoute, invalid, notFound, ok } from './define-route';

/** Files and audio (credential OA, scope `files`). */
export const filesAudioSection = [
  defineRoute({
    operationId: 'listFiles',
    method: 'GET',
    path: '/api/v2/me/files',
    tag: 'files',
    summary: 'List account files',
    scope: 'files',
    credential: 'oauth',
    request: {},
    responses: { 200: ok('Files, each with a fresh signed URL.', FilesResponse) },
  }),
  defineRoute({
    operationId: 'uploadFile',
    method: 'POST',
    path: '/api/v2/me/files',
    tag: 'files',
    summary: 'Upload an account file',
    description: `Raw bytes (not multipart); the \`Content-Type\` header becomes \`mimeType\`; without one, or with \`application/octet-stream\`, it is guessed from the extension of \`nombre\` (our choice). Max ${MB(LIMITS.workspaceFileBytesMax)} (our choice). \`nombre\` is a file name of at most 255 characters without slashes or control characters (our choice).`,
    scope: 'files',
    credential: 'oauth',
    request: {
      query: FileUploadQuery,
      body: { kind: 'octet-stream', required: true, maxBytes: LIMITS.workspaceFileBytesMax },
    },
    responses: {
      200: ok('The file, with a signed URL valid 6 h.', Archivo),
      400: invalid('Missing `nombre`.'),
      413: invalid(`Over ${MB(LIMITS.workspaceFileBytesMax)}.`),
    },
  }),
  defineRoute({
    operationId: 'getFileUrl',
    method: 'GET',
    path: '/api/v2/me/files/{id}',
    tag: 'files',
    summary: 'Get a new signed URL for a file',
    scope: 'files',
    credential: 'oauth',
    request: { params: IdParams },
    responses: { 200: ok('A new 6 h signed URL.', FileUrlResponse), 404: notFound },
  }),
  defineRoute({
    operationId: 'deleteFile',
    method: 'DELETE',
    path: '/api/v2/me/files/{id}',
    tag: 'files',
    summary: 'Delete an account file',
    description: 'An unknown id answers 200 `{deleted: false}` (our choice).',
    scope: 'files',
    credential: 'oauth',
    request: { params: IdParams },
    responses: { 200: ok('Whether it was deleted.', FileDeletedResult) },
  }),
  defineRoute({
    operationId: 'transcribe',
    method: 'POST',
    path: '/api/v2/me/stt',
    tag: 'files',
    summary: 'Transcribe audio',
    description:
      'Raw audio bytes with an `audio/*` content type. Without a configured transcription engine: 503 `{error, detalle}` (our choice). ' +
      "Our choices: engines are tried in order, Debian's pocketsphinx with its English model (audio converted to 16 kHz mono WAV by ffmpeg when needed), then an OpenAI-compatible `/audio/transcriptions` endpoint from config `stt.openai`; the local plan's audio cap is 25 MiB, set with config `stt.maxBytes`; audio that cannot be decoded is 400 `audio_invalido`; an engine that fails is 502 `transcripcion_fallida`.",
    scope: 'files',
    credential: 'oauth',
    request: { body: { kind: 'audio', required: true } },
    responses: {
      200: ok('The text.', SttResult),
      400: invalid('Empty body, not `audio/*`, or audio that cannot be decoded.'),
      413: invalid('Audio too large: `{error: "audio demasiado grande"}`.'),
      502: invalid('The transcription engine failed (our choice).'),
      503: invalid('No transcription engine is set up (our choice).'),
    },
  }),
] as const;
