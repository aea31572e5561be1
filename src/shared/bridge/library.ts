/** The library area: the account's file library (and, as it grows, audio). */
import type { Archivo, FileDeletedResult, FileUrlResponse, FilesResponse } from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskResult } from './desk-result';

export interface UploadFileInput {
  nombre: string;
  /** Sent as the upload's Content-Type; defaults to application/octet-stream. */
  mimeType?: string;
  /** File bytes, base64 (plain JSON so every carrier can move it). */
  dataBase64: string;
}

export interface LibraryMethods {
  listFiles(): Promise<DeskResult<FilesResponse>>;
  uploadFile(input: UploadFileInput): Promise<DeskResult<Archivo>>;
  deleteFile(fileId: string): Promise<DeskResult<FileDeletedResult>>;
  /** A fresh signed URL (valid 6 h). */
  getFileUrl(fileId: string): Promise<DeskResult<FileUrlResponse>>;
}

export const libraryArea = bridgeArea<LibraryMethods>()({
  calls: ['listFiles', 'uploadFile', 'deleteFile', 'getFileUrl'],
});
