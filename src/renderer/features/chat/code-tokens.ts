import { common, createLowlight } from 'lowlight';
import { linesPerPiece, type CodePieces } from './code-pieces';

/**
 * The highlighter itself (highlight.js's common languages, a few hundred KB): only the highlighting
 * worker imports this, so the window's script carries none of it (the window needs code-pieces.ts).
 */

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
