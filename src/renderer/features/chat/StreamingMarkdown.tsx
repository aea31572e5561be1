import { memo, useMemo, useRef } from 'react';
import { MarkdownBlock } from './MarkdownBlock';
import {
  splitMarkdown,
  type MarkdownBlock as Block,
  type MarkdownSplit,
} from '../../model/markdown-splitter';
import { useSeenOnce } from './use-seen-once';
import { useSkipped } from './use-skipped';

/** Closed blocks are rendered in groups, so a long reply re-renders one group per frame, not every block. */
const groupSize = 16;
/** Groups parsed at once when a message first shows; later ones wait until they near the viewport. */
const eagerGroups = 2;

/**
 * Markdown that grows while it streams: finished blocks keep their rendered
 * output (same objects, memoised), only the open block parses again, and only
 * while `streaming` (afterwards it is a finished block like the others). Groups of
 * a long reply that were never near the viewport show as plain text until
 * they are, so a 1 MB reply costs the parsing of what is seen, not of all of it.
 */
export function StreamingMarkdown(props: { text: string; streaming?: boolean; contained?: boolean }) {
  const { text, streaming = false, contained = false } = props;
  const previous = useRef<MarkdownSplit | undefined>(undefined);
  const split = useMemo(() => splitMarkdown(text, previous.current), [text]);
  previous.current = split;
  const groups: Block[][] = [];
  for (let i = 0; i < split.blocks.length; i += groupSize) groups.push(split.blocks.slice(i, i + groupSize));
  // A contained part far off screen: the groups in it are not laid out, and say nothing of it themselves.
  const box = useRef<HTMLDivElement>(null);
  const skipped = useSkipped(box);
  return (
    <div
      ref={box}
      className={`markdown${contained ? ' contained' : ''}${groups.length > 1 ? ' grouped' : ''}`}
    >
      {groups.map((blocks, index) => (
        <BlockGroup
          key={index}
          blocks={blocks}
          eager={index < eagerGroups}
          last={index === groups.length - 1}
          streaming={streaming && index === groups.length - 1}
          offScreen={skipped}
        />
      ))}
    </div>
  );
}

/** Same group when it holds the same block objects (closed blocks never change). */
const BlockGroup = memo(
  function BlockGroup(props: {
    blocks: Block[];
    eager: boolean;
    last: boolean;
    streaming: boolean;
    offScreen: boolean;
  }) {
    const [ref, seen] = useSeenOnce<HTMLDivElement>(props.eager);
    // Blocks far off screen wait to be parsed until they come near (the browser skips them meanwhile): a
    // fast 1 MB stream left thousands waiting, parsed for seconds after the reply ended, none of them seen.
    const held = useSkipped(ref) || props.offScreen;
    // The last group is where the reply grows: it always renders as markdown.
    const parse = seen || props.last;
    return (
      <div ref={ref} className="md-group">
        {props.blocks.map((block, i) =>
          parse ? (
            <MarkdownBlock
              key={block.key}
              text={block.text}
              open={props.streaming && !block.closed && i === props.blocks.length - 1}
              held={held}
            />
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
    before.last === after.last &&
    before.streaming === after.streaming &&
    before.eager === after.eager &&
    before.offScreen === after.offScreen &&
    before.blocks.length === after.blocks.length &&
    before.blocks.every((block, i) => block === after.blocks[i]),
);
