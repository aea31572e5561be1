import type { Attachment } from '../../../shared/api';
import type { AttachmentMeta } from '../../../shared/bridge/memory';

/** Names, types and sizes only: the bytes are never kept (an image's thumbnail comes separately). */
export function describeAttachment(image: Attachment, index: number): AttachmentMeta {
  const padding = image.data.endsWith('==') ? 2 : image.data.endsWith('=') ? 1 : 0;
  return {
    name: image.name ?? `attachment-${index + 1}`,
    mimeType: image.mimeType,
    size: Math.max(0, Math.floor((image.data.length * 3) / 4) - padding),
  };
}
