import { memo, useMemo } from 'react';
import { markdownParts } from '../../model/markdown-splitter';
import { textPartSealSize } from '../../model/turn-reducer';
import { StreamingMarkdown } from './StreamingMarkdown';
import { useSeenOnce } from './use-seen-once';

/** A finished text longer than this shows in parts (a reloaded 1 MB reply is one text, not sealed parts). */
const longText = 2 * textPartSealSize;

/**
 * A reply's markdown. While it streams, or when it is short, it is StreamingMarkdown. A long finished
 * text (a reply read back from history or the store) is cut at block boundaries into ~32 KB parts; a
 * part shows as one plain text node, skipped by layout off screen, until it first comes near the
 * viewport, so opening a 1 MB reply builds a few dozen nodes, not thousands.
 */
export function ReplyMarkdown(props: { text: string; streaming?: boolean; contained?: boolean }) {
  if (props.streaming || props.text.length <= longText) return <StreamingMarkdown {...props} />;
  return <LongMarkdown text={props.text} />;
}

const LongMarkdown = memo(function LongMarkdown({ text }: { text: string }) {
  const parts = useMemo(() => markdownParts(text, textPartSealSize), [text]);
  return (
    <>
      {parts.map((part, i) => (
        <LongPart key={i} text={part} eager={i === parts.length - 1} />
      ))}
    </>
  );
});

const LongPart = memo(function LongPart({ text, eager }: { text: string; eager: boolean }) {
  const [ref, seen] = useSeenOnce<HTMLDivElement>(eager);
  if (seen) return <StreamingMarkdown text={text} contained />;
  return (
    <div ref={ref} className="markdown contained">
      <div className="md-pending">{text}</div>
    </div>
  );
});
