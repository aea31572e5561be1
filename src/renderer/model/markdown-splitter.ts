/**
 * Splits streamed markdown into top-level blocks so the view can memoise the
 * finished ones and re-parse only the open (last) one. A block ends at a
 * blank line followed by a line that starts at column 0, outside a fenced code
 * block. Invariant: a closed block never changes as more text arrives, and
 * the blocks joined give back the text exactly. DOM-free and pure.
 */
export interface MarkdownBlock {
  key: string;
  text: string;
  closed: boolean;
}

export interface MarkdownSplit {
  source: string;
  blocks: readonly MarkdownBlock[];
  /** Offset where the open block starts; everything before it is closed. */
  openStart: number;
}

const fenceOpen = /^ {0,3}(`{3,}|~{3,})/;

export function splitMarkdown(text: string, previous?: MarkdownSplit): MarkdownSplit {
  let closed: MarkdownBlock[] = [];
  let start = 0;
  if (previous && previous.openStart <= text.length && grewFrom(previous, text)) {
    // Reuse the closed blocks (same objects, so memoised views skip them) when the text only grew.
    const open = previous.blocks[previous.blocks.length - 1];
    closed = open && !open.closed ? previous.blocks.slice(0, -1) : previous.blocks.slice();
    start = previous.openStart;
  }
  if (start === 0) closed = [];

  let blockStart = start;
  let fence: { char: string; length: number } | undefined;
  let previousBlank = false;
  let pos = start;
  while (pos < text.length) {
    const newline = text.indexOf('\n', pos);
    const complete = newline >= 0;
    const end = complete ? newline : text.length;
    const line = text.substring(pos, end);
    if (fence) {
      if (complete && isFenceClose(line, fence)) fence = undefined;
      previousBlank = false;
    } else {
      const blank = line.trim() === '';
      if (!blank && previousBlank && pos > blockStart && !/^[ \t]/.test(line)) {
        closed.push({ key: `b${closed.length}`, text: text.substring(blockStart, pos), closed: true });
        blockStart = pos;
      }
      const opener = complete ? fenceOpen.exec(line) : null;
      if (opener?.[1] && !(opener[1][0] === '`' && line.slice(opener[0].length).includes('`'))) {
        fence = { char: opener[1][0] as string, length: opener[1].length };
      }
      previousBlank = complete && blank;
    }
    if (!complete) break;
    pos = newline + 1;
  }

  const blocks = closed.slice();
  if (blockStart < text.length) {
    blocks.push({ key: `b${closed.length}`, text: text.substring(blockStart), closed: false });
  }
  return { source: text, blocks, openStart: blockStart };
}

/**
 * Whether `text` extends what `previous` split. Streamed text only ever grows, so
 * checking the last closed block in place (not the whole prefix) is enough and
 * keeps each frame's work proportional to the open block.
 */
function grewFrom(previous: MarkdownSplit, text: string): boolean {
  if (text === previous.source) return true;
  const lastClosed = previous.blocks.findLast((block) => block.closed);
  if (!lastClosed) return true;
  const at = previous.openStart - lastClosed.text.length;
  return (
    text.startsWith(lastClosed.text, at) && (at === 0 || text.startsWith(previous.source.slice(0, 64), 0))
  );
}

function isFenceClose(line: string, fence: { char: string; length: number }): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return !!match?.[1] && match[1][0] === fence.char && match[1].length >= fence.length;
}

/**
 * A long finished text cut into parts of at least `size` characters, each ending at a top-level block
 * boundary, so rendering the parts apart gives the same blocks as rendering the whole. One pass.
 */
export function markdownParts(text: string, size: number): string[] {
  if (text.length <= size) return [text];
  const parts: string[] = [];
  let current = '';
  for (const block of splitMarkdown(text).blocks) {
    current += block.text;
    if (current.length < size) continue;
    parts.push(current);
    current = '';
  }
  if (current) parts.push(current);
  return parts;
}
