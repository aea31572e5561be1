import { common, createLowlight } from 'lowlight';

/**
 * Syntax highlighting as data: a highlighted code block is a list of pieces of about
 * `linesPerPiece` lines, each a list of tokens (a run of the code's own text and the highlighter's
 * class names). Never HTML: the view renders each token as a text node in a span, so the code shows
 * as text whatever it contains. Pure (no DOM), so it runs in a worker and in unit tests alike.
 */
export interface CodeToken {
  text: string;
  /** Space-separated `hljs-*` classes, or empty for plain text. */
  className: string;
}

export type CodePieces = CodeToken[][];

/** A request to the highlighting worker; its answer carries the same id. */
export interface HighlightRequest {
  id: number;
  language: string;
  code: string;
}

export interface HighlightAnswer {
  id: number;
  /** Null when the language is unknown or highlighting failed: the code stays plain. */
  pieces: CodePieces | null;
}

/** Lines per piece: the view swaps the plain text for highlighted spans a piece at a time. */
export const linesPerPiece = 100;

const lowlight = createLowlight(common);

/** A hast node as lowlight builds it: text, or an element with classes and children. */
interface HighlightNode {
  type: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HighlightNode[];
}

/** The code highlighted as `language`, in pieces; null when the language is not one the highlighter knows. */
export function highlightCode(language: string, code: string): CodePieces | null {
  if (!language || !lowlight.registered(language)) return null;
  const tree = lowlight.highlight(language, code) as HighlightNode;
  const pieces: CodePieces = [[]];
  let lines = 0;
  const push = (text: string, className: string) => {
    let rest = text;
    // A token that spans a piece's end (a long comment or string) is cut at that line.
    for (let newline = rest.indexOf('\n'); newline >= 0; newline = rest.indexOf('\n')) {
      pieces[pieces.length - 1]!.push({ text: rest.slice(0, newline + 1), className });
      rest = rest.slice(newline + 1);
      lines += 1;
      if (lines % linesPerPiece === 0) pieces.push([]);
    }
    if (rest) pieces[pieces.length - 1]!.push({ text: rest, className });
  };
  const walk = (node: HighlightNode, classes: string) => {
    if (node.type === 'text') return push(node.value ?? '', classes);
    const own = Array.isArray(node.properties?.className) ? node.properties.className.join(' ') : '';
    const inner = [classes, own].filter(Boolean).join(' ');
    for (const child of node.children ?? []) walk(child, inner);
  };
  walk(tree, '');
  if (pieces.length > 1 && pieces[pieces.length - 1]!.length === 0) pieces.pop();
  return pieces;
}

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
