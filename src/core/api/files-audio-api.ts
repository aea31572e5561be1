import {
  apiRoutes,
  Archivo,
  FileDeletedResult,
  FilesResponse,
  FileUrlResponse,
  SttResult,
  type LibraryFile,
} from '../../shared/api';
import { json, type ApiRequest, type CallOptions } from './api-request';
import type { UploadProgressListener } from './progress-body';

/** Our `LibraryFile`: the wire's `Archivo` with its name under our word. */
const libraryFileFromWire = ({ id, nombre, mimeType, size, url }: Archivo): LibraryFile => ({
  id,
  name: nombre,
  mimeType,
  size,
  url,
});

/** Files and audio (spec section): the account's file library and speech to text. */
export function filesAudioApi(http: ApiRequest) {
  const r = apiRoutes;
  return {
    listFiles: (call?: CallOptions) =>
      http.call(
        r.listFiles,
        {},
        { read: json(FilesResponse.transform((v) => v.archivos.map(libraryFileFromWire))) },
        call,
      ),
    /** Raw bytes (not multipart) under `name` (the wire's `?nombre=`); answers the file with a 6 h signed URL. */
    uploadFile: (
      name: string,
      bytes: Uint8Array,
      mimeType = 'application/octet-stream',
      call?: CallOptions & { onProgress?: UploadProgressListener },
    ) =>
      http.call(
        r.uploadFile,
        {},
        {
          read: json(Archivo.transform(libraryFileFromWire)),
          query: { nombre: name },
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
