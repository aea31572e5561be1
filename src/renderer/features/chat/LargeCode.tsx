import { memo, useEffect, useMemo, useState } from 'react';
import { plainPieces, type CodePieces, type CodeToken } from './code-pieces';
import { highlightCode } from './code-tokens';
import { largeBlockSize } from './large-block';
import { highlightOffThread } from './worker-highlighter';

interface Highlighted {
  code: string;
  pieces: CodePieces;
  /** Pieces swapped in so far. */
  shown: number;
}

/**
 * A code block shown in pieces of lines (large-block.ts), so while it streams only its last piece changes.
 * An open one up to `largeBlockSize` is highlighted here as it grows (a few ms for 16 KB), each piece whose
 * tokens did not change left as it is. A larger one shows as plain text at once; once its fence is closed it
 * is highlighted in a worker, and the highlighted pieces replace the plain ones one per frame, so no single
 * task builds thousands of spans. An unknown language, or a window without workers, keeps it plain.
 */
export const LargeCode = memo(function LargeCode(props: { language: string; code: string; closed: boolean }) {
  const { language, code, closed } = props;
  const plain = useMemo(() => plainPieces(code), [code]);
  const growing = useMemo(
    () => (closed || code.length > largeBlockSize ? null : highlightInPlace(language, code, plain.length)),
    [language, code, closed, plain.length],
  );
  const [highlighted, setHighlighted] = useState<Highlighted | null>(null);
  const current = highlighted?.code === code ? highlighted : null;

  useEffect(() => {
    if (!closed || !language) return;
    let live = true;
    void highlightOffThread(language, code).then((pieces) => {
      if (live && pieces && pieces.length === plainPieces(code).length)
        setHighlighted({ code, pieces, shown: 0 });
    });
    return () => {
      live = false;
    };
  }, [language, code, closed]);

  useEffect(() => {
    if (!current || current.shown >= current.pieces.length) return;
    const frame = requestAnimationFrame(() => setHighlighted({ ...current, shown: current.shown + 1 }));
    return () => cancelAnimationFrame(frame);
  }, [current]);

  const language_ = /^[\w+-]+$/.test(language) ? `language-${language}` : '';
  if (growing)
    return (
      <code className={`hljs ${language_}`}>
        {growing.map((tokens, i) => (
          <HighlightedPiece key={`h${i}`} tokens={tokens} />
        ))}
      </code>
    );
  return (
    <code
      className={current ? `hljs ${language_}` : language_ || undefined}
      data-highlighted={current ? (current.shown >= current.pieces.length ? 'all' : 'partly') : undefined}
    >
      {plain.map((text, i) => {
        const tokens = current && i < current.shown ? current.pieces[i] : undefined;
        return tokens ? (
          <HighlightedPiece key={`h${i}`} tokens={tokens} />
        ) : (
          <PlainPiece key={i} text={text} />
        );
      })}
    </code>
  );
});

/** The code highlighted on this thread, in the same pieces as `plainPieces`; null when it stays plain. */
function highlightInPlace(language: string, code: string, pieces: number): CodePieces | null {
  try {
    const highlighted = highlightCode(language, code);
    return highlighted && highlighted.length === pieces ? highlighted : null;
  } catch {
    // A highlighter failure leaves the block plain; it never breaks the chat.
    return null;
  }
}

/**
 * Each piece is a block of its own: a changed piece (the growing last one, or one just highlighted)
 * is laid out alone, not the whole block's lines, and a piece off screen is not laid out at all.
 */
const pieceStyle = {
  display: 'block',
  contentVisibility: 'auto',
  containIntrinsicSize: 'auto 1500px',
} as const;

const PlainPiece = memo(function PlainPiece({ text }: { text: string }) {
  return <span style={pieceStyle}>{text}</span>;
});

/**
 * Each token is a text node in a span: the code's text is never read as markup. Rendered again only when
 * its tokens changed (a growing block is highlighted anew each frame, but only its last piece grows).
 */
const HighlightedPiece = memo(function HighlightedPiece({ tokens }: { tokens: CodeToken[] }) {
  return (
    <span style={pieceStyle}>
      {tokens.map((token, i) =>
        token.className ? (
          <span key={i} className={token.className}>
            {token.text}
          </span>
        ) : (
          token.text
        ),
      )}
    </span>
  );
}, sameTokens);

function sameTokens(before: { tokens: CodeToken[] }, after: { tokens: CodeToken[] }): boolean {
  const [a, b] = [before.tokens, after.tokens];
  return (
    a === b ||
    (a.length === b.length && a.every((t, i) => t.text === b[i]!.text && t.className === b[i]!.className))
  );
}
