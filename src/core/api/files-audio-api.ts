import {
  apiRoutes,
  Archivo,
  FileDeletedResult,
  FilesResponse,
  FileUrlResponse,
  SttResult,
} from '../../shared/api';
import { json, type ApiRequest, type CallOptions } from './api-request';
import type { UploadProgressListener } from './progress-body';

/** Files and audio (spec section): the account's file library and speech to text. */
export function filesAudioApi(http: ApiRequest) {
  const r = apiRoutes;
  return {
    listFiles: (call?: CallOptions) => http.call(r.listFiles, {}, { read: json(FilesResponse) }, call),
    /** Raw bytes (not multipart) under the name `nombre`; answers the Archivo with a 6 h signed URL. */
    uploadFile: (
      nombre: string,
      bytes: Uint8Array,
      mimeType = 'application/octet-stream',
      call?: CallOptions & { onProgress?: UploadProgressListener },
    ) =>
      http.call(
        r.uploadFile,
        {},
        {
          read: json(Archivo),
          query: { nombre },
          bytes: { data: bytes, contentType: mimeType, onProgress: call?.onProgress },
        },
        call,
      ),
    /** A new 6 h signed URL for a file. */
    getFileUrl: (id: string, call?: CallOptions) =>
      http.call(r.getFileUrl, { id }, { read: json(FileUrlResponse) }, call),
    deleteFile: (id: string, call?: CallOptions) =>
      http.call(r.deleteFile, { id }, { read: json(FileDeletedResult) }, call),
    transcribe: (audio: Uint8Array, contentType: string, call?: CallOptions) =>
      http.call(
        r.transcribe,
        {},
        {
          read: json(SttResult),
          bytes: { data: audio, contentType },
          resendable: true,
        },
        call,
      ),
  };
}
