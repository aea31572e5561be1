import { plainLine } from '../../shared/markdown/plain-line';

/** Longest title given to a thread from its first message. */
export const TITLE_MAX = 60;

/**
 * A thread's title from its first message: the first non-empty line as the words it reads as (the message
 * is shown as Markdown, the title as plain text: `**bold**` is "bold" in both), whitespace collapsed,
 * shortened at a word where one is near. It carries no "…" of ours: a title is data (renamed, synced,
 * exported), and the screens that run out of room add their own ellipsis.
 */
export function titleFromMessage(content: string): string {
  // Its start is all a title needs: a message can be megabytes.
  const first = content
    .trimStart()
    .slice(0, 2000)
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .find((l) => l !== '');
  if (!first) return 'Conversation';
  const line = plainLine(first) || first;
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
