import { memo, type ReactNode } from 'react';
import { PermissionCard } from './PermissionCard';
import { ReplyMarkdown } from './ReplyMarkdown';
import { Thought } from './Thought';
import { ToolCall, type ToolTurnEnd } from './ToolCall';
import { isTerminal, textPartSealSize, type Part, type ToolPart, type Turn } from '../../model/turn-reducer';
import { usageWords } from './usage-words';
import { RetryBeside } from './ReplyActions';

const phaseWords: Record<string, string> = {
  queued: 'Waiting for the agent…',
  waking: 'Waking the agent…',
  thinking: 'Thinking…',
};

/**
 * The agent's reply for one turn, built from its parts as they stream. A failed or stopped turn offers
 * `onRetry` beside its reason; `actions` (copy, retry, branch) come last once it has ended.
 */
export const TurnReply = memo(function TurnReply(props: {
  agentId: string;
  sessionId: string;
  turn: Turn;
  onRetry?: (() => Promise<string>) | undefined;
  actions?: ReactNode;
}) {
  const { turn } = props;
  const failed = turn.state === 'error';
  const reasonShown = turn.parts.some((p) => p.type === 'error');
  const open = !isTerminal(turn.state);
  const lastTool = (index: number): ToolPart | undefined =>
    turn.parts.slice(0, index).findLast((p): p is ToolPart => p.type === 'tool');
  const usage = usageWords(turn.usage);
  return (
    <article className={`message assistant turn-${turn.state}`} aria-label="Agent reply" aria-busy={open}>
      {turn.state === 'queued' ? (
        <p className="queued" role="status">
          Queued
          {turn.waitingTurns
            ? `: ${turn.waitingTurns} ${turn.waitingTurns === 1 ? 'reply' : 'replies'} waiting to start`
            : ''}
          …
        </p>
      ) : null}
      {turn.parts.map((part, index) => (
        <PartView
          key={part.key}
          part={part}
          streaming={open && index === turn.parts.length - 1}
          agentId={props.agentId}
          sessionId={props.sessionId}
          about={part.type === 'permission' ? lastTool(index) : undefined}
          turnOpen={open}
          turnEnd={turn.state === 'stopped' || turn.state === 'error' ? turn.state : undefined}
          onRetry={failed && part.type === 'error' ? props.onRetry : undefined}
        />
      ))}
      {failed && !reasonShown ? (
        <div className="reason-row">
          <p className="reply-error" role="alert">
            The reply failed.
          </p>
          {props.onRetry ? <RetryBeside onRetry={props.onRetry} /> : null}
        </div>
      ) : null}
      {open && turn.state !== 'queued' && turn.parts.length === 0 ? (
        <p className="working" role="status">
          {(turn.phase && phaseWords[turn.phase]) || 'Working…'}
        </p>
      ) : null}
      {open && turn.parts.length > 0 ? (
        <span className="typing" role="img" aria-label="The agent is still replying" />
      ) : null}
      {turn.state === 'stopped' ? (
        <div className="reason-row">
          <p className="stopped-note">Stopped.</p>
          {props.onRetry ? <RetryBeside onRetry={props.onRetry} /> : null}
        </div>
      ) : null}
      {usage ? (
        <p className="usage" aria-label="Usage">
          {usage}
        </p>
      ) : null}
      {open ? null : props.actions}
    </article>
  );
});

/** One part; memoised so a streaming reply re-renders only the part that changed. */
const PartView = memo(function PartView(props: {
  part: Part;
  streaming: boolean;
  agentId: string;
  sessionId: string;
  about?: ToolPart;
  turnOpen: boolean;
  turnEnd: ToolTurnEnd;
  onRetry?: (() => Promise<string>) | undefined;
}) {
  const { part } = props;
  switch (part.type) {
    case 'text':
      return (
        <ReplyMarkdown
          text={part.text}
          streaming={props.streaming}
          // A long finished part was on screen while it streamed, so its size is known: skip it whole off screen.
          contained={!props.streaming && part.text.length > textPartSealSize}
        />
      );
    case 'thought':
      return <Thought part={part} streaming={props.streaming} />;
    case 'tool':
      return <ToolCall part={part} turnEnd={props.turnEnd} />;
    case 'permission':
      return (
        <PermissionCard
          agentId={props.agentId}
          sessionId={props.sessionId}
          part={part}
          about={props.about}
          turnOpen={props.turnOpen}
        />
      );
    case 'error':
      return (
        <div className="reason-row">
          <p className="reply-error" role="alert">
            {part.message}
          </p>
          {props.onRetry ? <RetryBeside onRetry={props.onRetry} /> : null}
        </div>
      );
    case 'artifact':
      return <p className="artifact">File: {String(part.data['title'] ?? part.data['path'] ?? 'a file')}</p>;
  }
});
