import type { DraftAttachment } from '../model/attachment-limits';

/** Reads browser File objects into base64 attachments. */
export async function readFiles(files: readonly File[]): Promise<DraftAttachment[]> {
  return Promise.all(
    files.map(async (file) => ({
      id: crypto.randomUUID(),
      name: file.name || 'pasted-file',
      mimeType: file.type || 'application/octet-stream',
      size: file.size,
      data: toBase64(new Uint8Array(await file.arrayBuffer())),
    })),
  );
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) binary += String.fromCharCode(...bytes.subarray(i, i + step));
  return btoa(binary);
}

/** Base64 from the bridge back to bytes (a 20 MB file decodes in one pass, not a callback per byte). */
export function fromBase64(data: string): Uint8Array<ArrayBuffer> {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
