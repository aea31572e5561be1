import type { ContentBlock } from '@agentclientprotocol/sdk/unstable';

export interface ReceivedAttachment {
  name: string;
  mimeType: string;
  bytes: number;
}

/** Splits a prompt into its text and the attachments that came with it. */
export function readPrompt(blocks: ContentBlock[]): { text: string; attachments: ReceivedAttachment[] } {
  const texts: string[] = [];
  const attachments: ReceivedAttachment[] = [];
  const nameOf = (uri: string | null | undefined, fallback: string) => {
    const last = uri?.split('/').pop();
    return last ? decodeURIComponent(last) : fallback;
  };
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        texts.push(block.text);
        break;
      case 'image':
      case 'audio':
        attachments.push({
          name: nameOf('uri' in block ? block.uri : null, block.type),
          mimeType: block.mimeType,
          bytes: Buffer.from(block.data, 'base64').length,
        });
        break;
      case 'resource': {
        const r = block.resource;
        const bytes = 'text' in r ? Buffer.byteLength(r.text) : Buffer.from(r.blob, 'base64').length;
        attachments.push({
          name: nameOf(r.uri, 'resource'),
          mimeType: r.mimeType ?? 'application/octet-stream',
          bytes,
        });
        break;
      }
      case 'resource_link':
        attachments.push({
          name: block.name,
          mimeType: block.mimeType ?? 'application/octet-stream',
          bytes: block.size ?? 0,
        });
        break;
    }
  }
  return { text: texts.join('\n'), attachments };
}

/** One sentence naming every attachment with its type and size. */
export function describeAttachments(attachments: ReceivedAttachment[]): string {
  const items = attachments.map((a) => `${a.name} (${a.mimeType}, ${a.bytes} bytes)`);
  const noun = attachments.length === 1 ? 'attachment' : 'attachments';
  return `I received ${attachments.length} ${noun}: ${items.join(', ')}.`;
}
