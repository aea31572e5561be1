import type { Attachment } from '../../../shared/api';
import { desk } from '../../desk';
import { fromBase64 } from '../../ui/read-files';

/** Longest side of a stored thumbnail: enough to recognise a picture, far from its bytes. */
const SIDE = 96;

/** Small JPEG pictures of the image attachments (null for other files, or an image that won't decode). */
export async function makeThumbnails(
  attachments: readonly Pick<Attachment, 'mimeType' | 'data'>[],
): Promise<(string | null)[]> {
  return Promise.all(
    attachments.map(async (a) => {
      if (!a.mimeType.startsWith('image/')) return null;
      try {
        const bytes = fromBase64(a.data);
        const bitmap = await createImageBitmap(new Blob([bytes], { type: a.mimeType }));
        const scale = Math.min(1, SIDE / Math.max(bitmap.width, bitmap.height));
        const canvas = document.createElement('canvas');
        canvas.width = Math.max(1, Math.round(bitmap.width * scale));
        canvas.height = Math.max(1, Math.round(bitmap.height * scale));
        canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
        bitmap.close();
        return canvas.toDataURL('image/jpeg', 0.7);
      } catch {
        return null;
      }
    }),
  );
}

/** Keeps thumbnails of a sent turn's images in the local store; failing to is never the person's problem. */
export async function storeThumbnails(
  agentId: string,
  sessionId: string,
  turnId: string,
  thumbnails: readonly (string | null)[],
): Promise<void> {
  if (!thumbnails.some((t) => t !== null)) return;
  await desk().saveAttachmentThumbnails(agentId, sessionId, turnId, [...thumbnails]);
}
