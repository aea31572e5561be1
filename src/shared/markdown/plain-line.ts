/**
 * One line of Markdown as the words it reads as, for where a line is shown as plain text (a conversation's
 * title in the list, the header and the share page): a link as its text, `**bold**`, `*italics*`, `_them_`,
 * `~~struck~~` and `` `code` `` without their marks, and no heading, quote or list mark in front. Marks inside
 * words (`snake_case`, `a*b*c`) and anything unpaired stay as they are. Only the first 400 characters, more
 * than any title shows: the marks are matched in pairs, which costs the square of a line's length when
 * none close (a hostile message's first line can be 100 KB).
 */
export function plainLine(line: string): string {
  return (
    line
      .slice(0, 400)
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      // The marks are matched in pairs, the shortest first, so `a` and `b` are two; a fence (```js) is no pair.
      .replace(/(^|[^`])(`+)([^`]+?)\2(?!`)/g, '$1$3')
      .replace(/(\*\*|__|~~)(\S(?:.*?\S)??)\1/g, '$2')
      .replace(/(^|[^\w*_])([*_])(\S(?:.*?\S)??)\2(?![\w*_])/g, '$1$3')
      .replace(/^\s*(?:#{1,6}\s+|>\s*|[-+*]\s+|\d+[.)]\s+)/, '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}
