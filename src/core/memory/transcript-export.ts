import type {
  ExportedConversation,
  MemoryHistory,
  MemoryMessage,
  RecordedEvent,
} from '../../shared/bridge/memory';

export interface ExportSubject {
  agentId: string;
  conversationId: string;
  title: string | null;
  history: MemoryHistory;
}

/** The full stored record as JSON: every message with its turn's detail, for other tools and backups. */
export function exportJson(subject: ExportSubject, exportedAt: number): ExportedConversation {
  const record = {
    format: 'agentdesk-conversation',
    version: 1,
    exportedAt: new Date(exportedAt).toISOString(),
    agentId: subject.agentId,
    conversationId: subject.conversationId,
    title: subject.title,
    saltados: subject.history.skipped,
    messages: subject.history.messages.map((m) => ({ ...m, at: new Date(m.at).toISOString() })),
  };
  return {
    fileName: `${fileBase(subject.title)}.json`,
    mimeType: 'application/json',
    text: JSON.stringify(record, null, 2) + '\n',
  };
}

/** A readable Markdown document; thoughts and tool calls fold away as `<details>` sections. */
export function exportMarkdown(subject: ExportSubject): ExportedConversation {
  const out: string[] = [`# ${subject.title ?? 'Conversation'}`, ''];
  if (subject.history.skipped > 0) {
    out.push(`_${subject.history.skipped} earlier messages are not included._`, '');
  }
  for (const message of subject.history.messages) out.push(...messageMarkdown(message));
  return {
    fileName: `${fileBase(subject.title)}.md`,
    mimeType: 'text/markdown',
    text:
      out
        .join('\n')
        .replace(/\n{3,}/g, '\n\n')
        .trimEnd() + '\n',
  };
}

function messageMarkdown(message: MemoryMessage): string[] {
  const out = [message.role === 'user' ? '## You' : '## Agent', ''];
  for (const a of message.attachments ?? [])
    out.push(`- Attachment: ${a.name} (${a.mimeType}, ${a.size} bytes)`);
  if (message.attachments?.length) out.push('');
  const detail = message.detail;
  if (!detail || message.role === 'user') {
    out.push(message.content, '');
    return out;
  }
  for (const event of detail.events) out.push(...eventMarkdown(event));
  if (detail.storedText !== undefined) {
    out.push(...folded('As it streamed (the server keeps a different text)', detail.storedText));
  }
  const usage = detail.usage;
  if (usage) {
    const words = ['input', 'output', 'cost']
      .filter((k) => typeof usage[k] === 'number')
      .map((k) => `${k} ${String(usage[k])}`);
    if (words.length) out.push(`_Usage: ${words.join(', ')}_`, '');
  }
  return out;
}

function eventMarkdown({ event, data }: RecordedEvent): string[] {
  const text = (key: string): string => (typeof data[key] === 'string' ? (data[key] as string) : '');
  switch (event) {
    case 'chunk':
      return [text('text'), ''];
    case 'thought':
      return folded('Thought', text('text'));
    case 'tool': {
      const title = text('title') || text('id');
      const lines = [`Kind: ${text('kind') || 'tool'}`, `Status: ${text('status') || 'unknown'}`];
      if (text('path')) lines.push(`Path: ${text('path')}`);
      if (data['detail'] !== undefined) lines.push('', fence(JSON.stringify(data['detail'], null, 2)));
      return folded(`Tool call: ${title}`, lines.join('\n'));
    }
    case 'permission':
      return folded(`Permission asked: ${text('title')}`, fence(JSON.stringify(data, null, 2)));
    case 'permission-resolved':
      return [
        `> Permission answered: ${text('optionId') || 'no option'}${text('por') ? ` (by ${text('por')})` : ''}`,
        '',
      ];
    case 'error':
      return [`> Error: ${text('message')}`, ''];
    case 'artifact':
      return [`> File: ${text('path')}`, ''];
    default:
      return [];
  }
}

function folded(summary: string, body: string): string[] {
  return ['<details>', `<summary>${escapeHtml(summary)}</summary>`, '', body, '', '</details>', ''];
}

/** A fence longer than any backtick run inside, so the content cannot close it. */
function fence(body: string): string {
  const longest = Math.max(2, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}json\n${body}\n${ticks}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

function fileBase(title: string | null): string {
  const base = (title ?? '')
    .replace(/[^\p{L}\p{N}\- ]+/gu, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 60);
  return base || 'conversation';
}
