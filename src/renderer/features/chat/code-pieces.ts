/**
 * Syntax highlighting as data: a highlighted code block is a list of pieces of about
 * `linesPerPiece` lines, each a list of tokens (a run of the code's own text and the highlighter's
 * class names). Never HTML: the view renders each token as a text node in a span, so the code shows
 * as text whatever it contains. Pure (no DOM), so it runs in a worker and in unit tests alike; the
 * highlighting is code-tokens.ts, in the worker.
 */
export interface CodeToken {
  text: string;
  /** Space-separated `hljs-*` classes, or empty for plain text. */
  className: string;
}

export type CodePieces = CodeToken[][];

/** Lines per piece: the view swaps the plain text for highlighted spans a piece at a time. */
export const linesPerPiece = 100;

/** The code as plain-text pieces of the same lines, shown until (or instead of) the highlighted ones. */
export function plainPieces(code: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  let lines = 0;
  for (let at = code.indexOf('\n'); at >= 0; at = code.indexOf('\n', at + 1)) {
    lines += 1;
    if (lines % linesPerPiece !== 0) continue;
    pieces.push(code.slice(start, at + 1));
    start = at + 1;
  }
  if (start < code.length || pieces.length === 0) pieces.push(code.slice(start));
  return pieces;
}
