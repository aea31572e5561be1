import type { ChatMessage, MessageRole } from '../../shared/api';
import type { ConversationStream, Part } from './turn-reducer';

/**
 * A conversation as a Markdown document: the loaded history, then what
 * streamed since, with tool calls and errors noted. Pure.
 */
export function conversationMarkdown(
  title: string,
  messages: readonly ChatMessage[],
  stream: ConversationStream,
  skipped = 0,
): string {
  const out: string[] = [`# ${title}`, ''];
  if (skipped > 0) out.push(`_${skipped} earlier messages are not included._`, '');
  for (const message of messages) out.push(heading(message.role), '', message.content, '');
  for (const item of stream.items) {
    if (item.kind === 'user') {
      out.push(heading('user'), '', item.text, '');
      for (const a of item.attachments) out.push(`- Attachment: ${a.name} (${a.mimeType})`);
      if (item.attachments.length) out.push('');
      continue;
    }
    const turn = stream.turns[item.turnId];
    if (!turn) continue;
    out.push(heading('assistant'), '');
    for (const part of turn.parts) out.push(...partMarkdown(part));
  }
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}

function heading(role: MessageRole): string {
  return role === 'user' ? '## You' : '## Agent';
}

function partMarkdown(part: Part): string[] {
  switch (part.type) {
    case 'text':
      return [part.text, ''];
    case 'thought':
      return [];
    case 'tool':
      return [
        `> Tool: ${part.title ?? part.id}${part.path ? ` (${part.path})` : ''}${part.status ? ` — ${part.status}` : ''}`,
        '',
      ];
    case 'permission':
      return [`> Permission asked: ${part.title ?? part.id}`, ''];
    case 'error':
      return [`> Error: ${part.message}`, ''];
    case 'artifact':
      return [];
  }
}

/** A safe file name from a title. */
export function exportFileName(title: string): string {
  const base = title
    .replace(/[^\p{L}\p{N}\- ]+/gu, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 60);
  return `${base || 'conversation'}.md`;
}
