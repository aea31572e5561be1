import {
  libraryReadBytesMax,
  type DownloadedFile,
  type LibraryMethods,
  type UploadProgress,
} from '../../../shared/bridge';
import type { Logger } from '../../log/logger';
import type { FetchLike } from '../../common/result';
import { checkId } from '../plumbing/argument-checks';
import { fail } from '../plumbing/call-results';
import { createEventHub } from '../plumbing/event-hub';
import type { WithApi } from '../plumbing/with-api';
import { createProgressThrottle } from './progress-throttle';
import { createTranscriptionMethods } from './transcription';

/**
 * The library area: the account's file library, and transcription (transcription.ts). Uploads travel as base64 over the
 * bridge, then as raw bytes to the server with their progress reported and a way to cancel them.
 */
export function createLibraryArea(deps: {
  withApi: WithApi;
  logger: Logger;
  fetch?: FetchLike | undefined;
}): LibraryMethods & { close(): void } {
  const progress = createEventHub<UploadProgress>(deps.logger, 'upload progress');
  const running = new Map<string, AbortController>();
  const fetchImpl: FetchLike = deps.fetch ?? ((input, init) => fetch(input, init));

  return {
    async listFiles() {
      return deps.withApi((api) => api.listFiles());
    },

    async uploadFile(input) {
      if (typeof input !== 'object' || input === null) return fail('invalid_argument', 'A file is needed.');
      const invalid = checkId(input.name, 'file name');
      if (invalid) return { ok: false, error: invalid };
      if (typeof input.dataBase64 !== 'string') return fail('invalid_argument', 'The file has no contents.');
      const uploadId = typeof input.uploadId === 'string' && input.uploadId ? input.uploadId : undefined;
      if (uploadId && running.has(uploadId))
        return fail('invalid_argument', 'That upload is already running.');
      const bytes = new Uint8Array(Buffer.from(input.dataBase64, 'base64'));
      const abort = new AbortController();
      if (uploadId) running.set(uploadId, abort);
      const report = uploadId
        ? createProgressThrottle((sent, total) => progress.emit({ uploadId, sent, total }))
        : undefined;
      try {
        return await deps.withApi((api) =>
          api.uploadFile(input.name, bytes, input.mimeType ?? 'application/octet-stream', {
            signal: abort.signal,
            ...(report ? { onProgress: report } : {}),
          }),
        );
      } finally {
        report?.flush();
        if (uploadId) running.delete(uploadId);
      }
    },

    async cancelUpload(uploadId) {
      const abort = typeof uploadId === 'string' ? running.get(uploadId) : undefined;
      abort?.abort();
      return { ok: true, value: !!abort };
    },

    async deleteFile(fileId) {
      const invalid = checkId(fileId, 'file');
      if (invalid) return { ok: false, error: invalid };
      return deps.withApi((api) => api.deleteFile(fileId));
    },

    async getFileUrl(fileId) {
      const invalid = checkId(fileId, 'file');
      if (invalid) return { ok: false, error: invalid };
      return deps.withApi((api) => api.getFileUrl(fileId));
    },

    async downloadFile(fileId) {
      const invalid = checkId(fileId, 'file');
      if (invalid) return { ok: false, error: invalid };
      const listed = await deps.withApi((api) => api.listFiles());
      if (!listed.ok) return listed;
      const file = listed.value.find((f) => f.id === fileId);
      if (!file) return fail('not_found', 'That file is no longer in your library.');
      const tooLarge = () =>
        fail<DownloadedFile>('too_large', `${file.name} is larger than ${libraryReadBytesMax >> 20} MB.`);
      if (file.size > libraryReadBytesMax) return tooLarge();
      const link = await deps.withApi((api) => api.getFileUrl(fileId));
      if (!link.ok) return link;
      try {
        // The signed URL is the credential: no bearer goes with it.
        const response = await fetchImpl(link.value.url);
        if (!response.ok) return fail('not_found', `The file could not be read (HTTP ${response.status}).`);
        const bytes = new Uint8Array(await response.arrayBuffer());
        if (bytes.byteLength > libraryReadBytesMax) return tooLarge();
        return {
          ok: true,
          value: {
            name: file.name,
            mimeType: file.mimeType,
            dataBase64: Buffer.from(bytes).toString('base64'),
          },
        };
      } catch (error) {
        return fail('network', `The file could not be read (${(error as Error).message}).`);
      }
    },

    ...createTranscriptionMethods(deps.withApi),

    onUploadProgress(listener) {
      return progress.on(listener);
    },

    close() {
      for (const abort of running.values()) abort.abort();
      running.clear();
      progress.clear();
    },
  };
}
