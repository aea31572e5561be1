import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ContentBlock, PromptCapabilities } from '@agentclientprotocol/sdk/unstable';
import { writeWorkspaceFile } from '../workspace/workspace-io';
import type { Attachment, MessageText } from '../../shared/api';

/** Where attachments land when the agent cannot take them inline (hidden folder in the workspace). */
export const ATTACHMENTS_DIR = '.agentdesk-attachments';

const TEXT_MIME = /^(text\/|application\/(json|xml|javascript|x-yaml|yaml|toml|x-sh|csv)\b)|\+(json|xml)$/;

function decodeUtf8(bytes: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** A file name safe to use as the last part of a path or URI. */
function safeName(name: string | undefined, index: number): string {
  const base = (name ?? '').split(/[\\/]/).pop()?.trim() ?? '';
  return base && base !== '.' && base !== '..' ? base : `attachment-${index + 1}`;
}

/** `_meta` key of the history block: the same messages as data, for agents that read them exactly. */
export const HISTORY_META_KEY = 'agentdesk/history';

/**
 * Earlier messages an agent never saw (a forked conversation's), as one text block before the
 * person's message: readable by any agent, and as data under `_meta` for those that take it.
 */
export function historyBlock(history: MessageText[]): ContentBlock {
  const said = history.map((m) => `${m.role === 'user' ? 'The person' : 'You'} said:\n${m.content}`);
  const text = [
    'This conversation continues an earlier one. What was said there, oldest first:',
    ...said,
    'The person’s new message follows.',
  ].join('\n\n');
  return { type: 'text', text, _meta: { [HISTORY_META_KEY]: history } };
}

/**
 * Builds the `session/prompt` content: the text, then each attachment as a
 * content block. Images (and audio) go inline when the agent accepts them,
 * other files as embedded resources (text or base64 blob). An agent that takes
 * neither gets the file saved in the workspace and a `resource_link` to it,
 * which every ACP agent must understand.
 */
export async function buildPromptBlocks(
  content: string,
  attachments: Attachment[],
  caps: PromptCapabilities | undefined,
  workspaceDir: string,
  batchId: string,
): Promise<ContentBlock[]> {
  const blocks: ContentBlock[] = [{ type: 'text', text: content }];
  for (const [index, attachment] of attachments.entries()) {
    const name = safeName(attachment.name, index);
    const uri = attachment.uri ?? `attachment:///${encodeURIComponent(name)}`;
    const { mimeType, data } = attachment;

    if (mimeType.startsWith('image/') && caps?.image) {
      blocks.push({ type: 'image', mimeType, data, uri });
      continue;
    }
    if (mimeType.startsWith('audio/') && caps?.audio) {
      blocks.push({ type: 'audio', mimeType, data });
      continue;
    }
    const bytes = Buffer.from(data, 'base64');
    if (caps?.embeddedContext) {
      const text = TEXT_MIME.test(mimeType) ? decodeUtf8(bytes) : null;
      blocks.push({
        type: 'resource',
        resource: text !== null ? { uri, mimeType, text } : { uri, mimeType, blob: data },
      });
      continue;
    }
    // Never through a link the agent may have planted at the attachments folder.
    const file = await writeWorkspaceFile(workspaceDir, join(ATTACHMENTS_DIR, batchId, name), bytes);
    blocks.push({ type: 'resource_link', name, mimeType, uri: pathToFileURL(file).href, size: bytes.length });
  }
  return blocks;
}
