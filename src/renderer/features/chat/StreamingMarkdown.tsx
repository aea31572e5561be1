import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { MarkdownBlock } from './MarkdownBlock';
import { splitMarkdown, type MarkdownBlock as Block, type MarkdownSplit } from './markdown-splitter';

/** Closed blocks are rendered in groups, so a long reply re-renders a few groups per frame, not every block. */
const groupSize = 32;
/** At most this many blocks are parsed per frame; the rest show as plain text for a frame or two. */
const blocksPerFrame = 4;

/**
 * Markdown that grows while it streams: finished blocks keep their rendered
 * output (same objects, memoised), only the open block parses again. When a
 * burst brings many blocks at once they are parsed a few per frame, so no
 * frame turns into a long task.
 */
export function StreamingMarkdown({ text }: { text: string }) {
  const previous = useRef<MarkdownSplit | undefined>(undefined);
  const split = useMemo(() => splitMarkdown(text, previous.current), [text]);
  previous.current = split;
  const [parsed, setParsed] = useState(() => Math.min(split.blocks.length, blocksPerFrame * 4));
  const total = split.blocks.length;

  useEffect(() => {
    if (parsed >= total) return;
    const frame = requestAnimationFrame(() => setParsed((n) => Math.min(total, n + blocksPerFrame)));
    return () => cancelAnimationFrame(frame);
  }, [parsed, total]);

  const groups: { blocks: Block[]; ready: number }[] = [];
  for (let i = 0; i < total; i += groupSize) {
    const blocks = split.blocks.slice(i, i + groupSize);
    groups.push({ blocks, ready: Math.max(0, Math.min(blocks.length, parsed - i)) });
  }
  return (
    <div className="markdown">
      {groups.map((group, index) => (
        // The last block always renders as markdown: it is the one the person is reading.
        <BlockGroup
          key={index}
          blocks={group.blocks}
          ready={group.ready}
          withLast={index === groups.length - 1}
        />
      ))}
    </div>
  );
}

/** Same group when it holds the same block objects (closed blocks never change) at the same readiness. */
const BlockGroup = memo(
  function BlockGroup(props: { blocks: Block[]; ready: number; withLast: boolean }) {
    const last = props.blocks.length - 1;
    return (
      <div className="md-group">
        {props.blocks.map((block, index) =>
          index < props.ready || (props.withLast && index === last) ? (
            <MarkdownBlock key={block.key} text={block.text} />
          ) : (
            <div key={block.key} className="md-pending">
              {block.text}
            </div>
          ),
        )}
      </div>
    );
  },
  (before, after) =>
    before.ready === after.ready &&
    before.withLast === after.withLast &&
    before.blocks.length === after.blocks.length &&
    before.blocks.every((block, i) => block === after.blocks[i]),
);
