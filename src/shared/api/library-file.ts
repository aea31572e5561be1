/**
 * A file of the account's library, in our words. The API client (core/api/files-audio-api.ts) reads it from
 * the wire's `Archivo` (`nombre` -> `name`) and its list from `{archivos}`; the upload's `?nombre=` is
 * written there too.
 */
export interface LibraryFile {
  id: string;
  /** `nombre` */
  name: string;
  mimeType: string;
  size: number;
  /** Signed, valid 6 hours. */
  url: string;
}
