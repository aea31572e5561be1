import { useMemo, useRef } from 'react';
import { MarkdownBlock } from './MarkdownBlock';
import { splitMarkdown, type MarkdownSplit } from './markdown-splitter';

/**
 * Markdown that grows while it streams: finished blocks keep their rendered
 * output (same objects, memoised), only the open block parses again.
 */
export function StreamingMarkdown({ text }: { text: string }) {
  const previous = useRef<MarkdownSplit | undefined>(undefined);
  const split = useMemo(() => splitMarkdown(text, previous.current), [text]);
  previous.current = split;
  return (
    <div className="markdown">
      {split.blocks.map((block) => (
        <MarkdownBlock key={block.key} text={block.text} />
      ))}
    </div>
  );
}
