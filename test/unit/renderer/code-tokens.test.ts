import { describe, expect, it } from 'vitest';
import { linesPerPiece, plainPieces, type CodePieces } from '../../../src/renderer/features/chat/code-pieces';
import { highlightCode } from '../../../src/renderer/features/chat/code-tokens';

const join = (pieces: CodePieces) => pieces.map((piece) => piece.map((t) => t.text).join(''));
const code = (lines: number) =>
  Array.from({ length: lines }, (_, i) => `const v${i} = "line ${i}"; // note ${i}\n`).join('');

describe('highlightCode (the worker computes it for large code blocks)', () => {
  it('gives back the code exactly, in the same pieces of lines as the plain view', () => {
    const text = code(linesPerPiece * 2 + 37);
    const pieces = highlightCode('ts', text)!;
    expect(pieces).toHaveLength(3);
    expect(join(pieces)).toEqual(plainPieces(text));
    expect(plainPieces(text).join('')).toBe(text);
  });

  it('marks keywords, strings and comments with the highlighter classes', () => {
    const [piece] = highlightCode('ts', 'const a = "b"; // c\n')!;
    expect(piece).toContainEqual({ text: 'const', className: 'hljs-keyword' });
    expect(piece).toContainEqual({ text: '"b"', className: 'hljs-string' });
    expect(piece).toContainEqual({ text: '// c', className: 'hljs-comment' });
  });

  it('cuts a token that spans a piece end at that line (a long comment)', () => {
    const text = '/*\n' + 'x\n'.repeat(linesPerPiece + 5) + '*/\n';
    const pieces = highlightCode('js', text)!;
    expect(join(pieces)).toEqual(plainPieces(text));
    expect(pieces[1]!.every((t) => t.className === 'hljs-comment' || t.text === '\n')).toBe(true);
  });

  it('keeps markup in the code as text tokens, never as elements', () => {
    const text = '<script>alert(1)</script>\n<img src=x onerror=alert(2)>\n';
    const pieces = highlightCode('html', text)!;
    expect(join(pieces).join('')).toBe(text);
    expect(pieces.flat().every((t) => typeof t.text === 'string' && /^[\w -]*$/.test(t.className))).toBe(
      true,
    );
  });

  it('leaves a language it does not know (or none) to the plain view', () => {
    expect(highlightCode('no-such-language', 'x')).toBeNull();
    expect(highlightCode('', 'x')).toBeNull();
  });
});

describe('plainPieces', () => {
  it('cuts after every hundredth line and keeps a last partial piece', () => {
    expect(plainPieces('')).toEqual(['']);
    expect(plainPieces('a\nb')).toEqual(['a\nb']);
    const exact = code(linesPerPiece);
    expect(plainPieces(exact)).toEqual([exact]);
    expect(plainPieces(exact + 'tail')).toEqual([exact, 'tail']);
  });
});
