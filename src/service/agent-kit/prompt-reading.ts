import type { ContentBlock } from '@agentclientprotocol/sdk/unstable';
import { ChatMessage } from '../../shared/api';

/**
 * How the first-party agents (the demo agent, the model agent) read a prompt's blocks: the person's
 * text, the attachments, and a fork's earlier messages given as data.
 */

/** An earlier message as a fork's history gives it. */
export type EarlierMessage = Pick<ChatMessage, 'role'> & { text: string };

export interface ReceivedAttachment {
  name: string;
  mimeType: string;
  bytes: number;
}

/** `_meta` key under which the service gives a fork's earlier messages (engine/prompt-blocks.ts). */
const HISTORY_META_KEY = 'agentdesk/history';
/** Each earlier message as the service gives it (engine/prompt-blocks.ts `historyBlock`). */
const GIVEN_MESSAGE = ChatMessage.pick({ role: true, content: true });

/** The earlier messages a history block carries as data, or null when the block is not one. */
function earlierMessages(block: ContentBlock): EarlierMessage[] | null {
  const data = block._meta?.[HISTORY_META_KEY];
  if (!Array.isArray(data)) return null;
  return data.flatMap((m: unknown) => {
    const given = GIVEN_MESSAGE.safeParse(m);
    return given.success ? [{ role: given.data.role, text: given.data.content }] : [];
  });
}

/** Splits a prompt into its text, the attachments that came with it, and any earlier messages given. */
export function readPrompt(blocks: ContentBlock[]): {
  text: string;
  attachments: ReceivedAttachment[];
  earlier: EarlierMessage[];
} {
  const texts: string[] = [];
  const earlier: EarlierMessage[] = [];
  const attachments: ReceivedAttachment[] = [];
  const nameOf = (uri: string | null | undefined, fallback: string) => {
    const last = uri?.split('/').pop();
    return last ? decodeURIComponent(last) : fallback;
  };
  for (const block of blocks) {
    switch (block.type) {
      case 'text': {
        const given = earlierMessages(block);
        if (given) earlier.push(...given);
        else texts.push(block.text);
        break;
      }
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
  return { text: texts.join('\n'), attachments, earlier };
}

/** One sentence naming every attachment with its type and size. */
export function describeAttachments(attachments: ReceivedAttachment[]): string {
  const items = attachments.map((a) => `${a.name} (${a.mimeType}, ${a.bytes} bytes)`);
  const noun = attachments.length === 1 ? 'attachment' : 'attachments';
  return `I received ${attachments.length} ${noun}: ${items.join(', ')}.`;
}
