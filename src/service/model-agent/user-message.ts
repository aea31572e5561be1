import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk/unstable';
import type { ModelMessage } from 'ai';
import { readPrompt } from '../agent-kit/prompt-reading';
import { displayPath } from '../workspace/agent-folders';

/**
 * What the person's prompt becomes for the model: its text, each embedded text file inline, and
 * each linked file named by its workspace path (the model reads it with read_file). A fork's
 * earlier messages (`_meta["agentdesk/history"]`, read as the demo agent reads them) come back as
 * prior messages, for a session that has none yet.
 */
export function userTurn(blocks: ContentBlock[], root: string): { text: string; earlier: ModelMessage[] } {
  const { text, earlier } = readPrompt(blocks);
  const parts = [text];
  for (const block of blocks) {
    if (block.type === 'resource') {
      const r = block.resource;
      parts.push(
        'text' in r
          ? `Attached file ${r.uri}:\n\`\`\`\n${r.text}\n\`\`\``
          : `Attached file ${r.uri} (${r.mimeType ?? 'binary'}, not text).`,
      );
    } else if (block.type === 'resource_link') {
      parts.push(
        `Attached file: ${linkPath(block.uri, root)} (${block.mimeType ?? 'file'}; read it with read_file if it is text).`,
      );
    }
  }
  return {
    text: parts.filter((p) => p.trim() !== '').join('\n\n'),
    earlier: earlier.map((m) => ({ role: m.role === 'user' ? 'user' : 'assistant', content: m.text })),
  };
}

function linkPath(uri: string, root: string): string {
  try {
    return uri.startsWith('file:') ? displayPath(root, fileURLToPath(uri)) : uri;
  } catch {
    return uri;
  }
}

/** The text of a saved message, for replaying a loaded conversation (tool calls and results are not replayed). */
export function messageText(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}
