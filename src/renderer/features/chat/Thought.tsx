import './markdown.css';
import { memo } from 'react';
import type { ThoughtPart } from '../../model/turn-reducer';

/** The agent's thinking, folded away by default; open while it is the part still streaming. */
export const Thought = memo(function Thought({ part, streaming }: { part: ThoughtPart; streaming: boolean }) {
  return (
    <details className="thought" open={streaming || undefined}>
      <summary>{streaming ? 'Thinking…' : 'Thought'}</summary>
      <div className="thought-text">{part.text}</div>
    </details>
  );
});
