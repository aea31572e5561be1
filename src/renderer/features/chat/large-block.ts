/**
 * Blocks too large to parse in one task. Parsing and highlighting a 100 KB code block takes over a
 * second of main thread, so a large code block skips the markdown parser: it shows as plain code at
 * once and is highlighted in a worker once its fence closes (LargeCode.tsx).
 */
export const largeBlockSize = 16 * 1024;

export interface PlainFence {
  language: string;
  code: string;
  /** The closing fence is there: the code is final (more text goes to the next block). */
  closed: boolean;
}

/** A large fenced code block's language and code, or null for anything else (which parses as usual). */
export function largeFence(text: string): PlainFence | null {
  return text.length > largeBlockSize ? fenceOf(text) : null;
}

/**
 * An open fence this long streams as code pieces highlighted in place (LargeCode.tsx), not through the
 * markdown parser: the parser took the whole block again every frame (11 ms for 16 KB of code, before the
 * highlighting), and React compared all its spans; a piece of code that did not change is not rendered again.
 */
export const streamingFenceSize = 2 * 1024;

/** An open fenced code block of at least `streamingFenceSize`, as largeFence gives it; null for anything else. */
export function streamingFence(text: string): PlainFence | null {
  if (text.length < streamingFenceSize) return null;
  const fence = fenceOf(text);
  return fence && !fence.closed ? fence : null;
}

/** A block that is one fenced code block: its language, its code and whether its closing fence is there. */
function fenceOf(text: string): PlainFence | null {
  const open = /^ {0,3}(`{3,}|~{3,})([^\n`]*)\n/.exec(text);
  if (!open) return null;
  const fence = open[1]!;
  const body = text.slice(open[0].length).replace(/\s+$/, '');
  const lastLine = body.slice(body.lastIndexOf('\n') + 1);
  // Closed by a fence of the same kind and at least the same length, or still open at the end.
  const closing = lastLine.trim();
  const closed = closing.length >= fence.length && closing === fence[0]!.repeat(closing.length);
  return {
    language: open[2]!.trim().split(/\s+/)[0] ?? '',
    code: closed ? body.slice(0, body.length - lastLine.length).replace(/\n$/, '') : body,
    closed,
  };
}
