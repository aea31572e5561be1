/** The library area: the account's file library and audio transcription (scope `files`). */
import type { FileDeletedResult, FileUrlResponse, LibraryFile, SttResult } from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskResult, Unsubscribe } from './desk-result';

export interface UploadFileInput {
  name: string;
  /** Sent as the upload's Content-Type; defaults to application/octet-stream. */
  mimeType?: string;
  /** File bytes, base64 (plain JSON so every carrier can move it). */
  dataBase64: string;
  /** Chosen by the caller to follow `onUploadProgress` and to `cancelUpload`. */
  uploadId?: string;
}

/** Bytes of an upload handed to the server so far. */
export interface UploadProgress {
  uploadId: string;
  sent: number;
  total: number;
}

/** A library file's bytes, read by the host (the signed URL lives on the server's origin). */
export interface DownloadedFile {
  name: string;
  mimeType: string;
  dataBase64: string;
}

export interface TranscribeInput {
  /** Raw audio, base64. */
  audioBase64: string;
  /** An `audio/*` type, e.g. `audio/wav`. */
  mimeType: string;
}

export interface LibraryMethods {
  listFiles(): Promise<DeskResult<LibraryFile[]>>;
  /** Raw bytes with their name; a cancelled upload fails with code `cancelled`. */
  uploadFile(input: UploadFileInput): Promise<DeskResult<LibraryFile>>;
  /** Stops a running upload; resolves true when one was running. */
  cancelUpload(uploadId: string): Promise<DeskResult<boolean>>;
  deleteFile(fileId: string): Promise<DeskResult<FileDeletedResult>>;
  /** A fresh signed URL (valid 6 h). */
  getFileUrl(fileId: string): Promise<DeskResult<FileUrlResponse>>;
  downloadFile(fileId: string): Promise<DeskResult<DownloadedFile>>;
  /** `POST /api/v2/me/stt`; 413 when the audio is over the plan's cap. */
  transcribe(input: TranscribeInput): Promise<DeskResult<SttResult>>;
  onUploadProgress(listener: (progress: UploadProgress) => void): Unsubscribe;
}

export const libraryArea = bridgeArea<LibraryMethods>()({
  calls: [
    'listFiles',
    'uploadFile',
    'cancelUpload',
    'deleteFile',
    'getFileUrl',
    'downloadFile',
    'transcribe',
  ],
  subscriptions: ['onUploadProgress'],
});
