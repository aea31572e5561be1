import { FIRST_LINE_READ, firstPlainLine } from '../../shared/markdown/plain-text';

/** Longest title given to a thread from its first message. */
export const TITLE_MAX = 60;

/**
 * A thread's title from its first message: the first line it shows once read as Markdown (the message is
 * shown as Markdown, the title as plain text: `**bold**` is "bold" in both, and a message opening with a
 * code fence is titled by its code), shortened at a word where one is near. A message that shows no words
 * (a rule, an empty fence) is titled by its first line as written. It carries no "…" of ours: a title
 * is data (renamed, synced, exported), and the screens that run out of room add their own ellipsis.
 */
export function titleFromMessage(content: string): string {
  const line = firstPlainLine(content) || firstLineAsWritten(content);
  if (!line) return 'Conversation';
  if (line.length <= TITLE_MAX) return line;
  const cut = [...line].slice(0, TITLE_MAX).join('');
  const space = cut.lastIndexOf(' ');
  return (space >= TITLE_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '');
}

/**
 * The title a closing turn gives its conversation, only ever into an untitled one (a name the person
 * gave stays): the agent's own (the model agent writes one after its first reply), else a first
 * turn's first line; null for none.
 */
export function closingTitle(agentTitle: string | null, firstTurn: boolean, content: string): string | null {
  if (agentTitle !== null) return titleFromMessage(agentTitle);
  return firstTurn ? titleFromMessage(content) : null;
}

/** The first non-empty line, whitespace collapsed, from the start of a message (it can be megabytes). */
function firstLineAsWritten(content: string): string {
  const start = content.trimStart().slice(0, FIRST_LINE_READ);
  return (start.split('\n')[0] ?? '').replace(/\s+/g, ' ').trim();
}
