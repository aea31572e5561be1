import { memo, useMemo } from 'react';
import type { ForkPoint } from '../../../shared/api';
import type { ThreadMessage } from '../../stores/conversations-store';
import { isTerminal, type TextPart, type Turn, type UserItem } from '../../model/turn-reducer';
import type { EntryContext } from '../../model/transcript-context';
import { ReplyActions } from './ReplyActions';
import { ReplyMarkdown } from './ReplyMarkdown';
import { replayStoredTurn } from './stored-turn';
import { TurnReply } from './TurnReply';
import { UserMessageView } from './UserMessageView';
import { branchAt, redoExchange, sendAgain } from './message-actions';

/** What a row of the transcript needs to act: where it is, what it may offer, and whether a turn runs. */
export interface RowActions {
  agentId: string;
  sessionId: string;
  context: EntryContext;
  /** A turn is running: nothing is sent again until it ends. */
  busy: boolean;
  /** Where a branch from this reply ends; absent where the server offers no branching. */
  branch?: ForkPoint | undefined;
}

/** A message of the person from the history. */
export const HistoryUserRow = memo(function HistoryUserRow(props: RowActions & { message: ThreadMessage }) {
  return (
    <UserMessageView
      text={props.message.content}
      attachments={props.message.attachments}
      onEdit={editFor(props, props.message.content)}
    />
  );
});

/** A reply from the history: as it streamed when the app kept its parts, else its text. */
export const HistoryReplyRow = memo(function HistoryReplyRow(props: RowActions & { message: ThreadMessage }) {
  const { message } = props;
  const turn = useMemo(() => (message.detail ? replayStoredTurn(message.detail) : undefined), [message]);
  if (turn) {
    return (
      <>
        <ReplyTurn {...props} turn={turn} text={message.content} />
        {message.detail?.storedText !== undefined ? (
          <p className="stored-differs muted">
            The server keeps a different text of this reply than the one that streamed; its text is shown.
          </p>
        ) : null}
      </>
    );
  }
  // A reply from the history has ended: it says so as a streamed one does once it ends.
  return (
    <article className="message assistant" aria-label="Agent reply" aria-busy={false}>
      <ReplyMarkdown text={message.content} />
      <Actions {...props} text={message.content} />
    </article>
  );
});

/** A message the person sent since the history was read. */
export const LiveUserRow = memo(function LiveUserRow(props: RowActions & { item: UserItem }) {
  const { item } = props;
  return (
    <UserMessageView
      text={item.text}
      attachments={item.attachments}
      mode={item.mode}
      error={item.error}
      onEdit={item.mode === 'failed' ? undefined : editFor(props, item.text)}
      onRetry={
        item.mode === 'failed' && !props.busy
          ? () => sendAgain(props.agentId, props.sessionId, item.text)
          : undefined
      }
    />
  );
});

/**
 * A reply streaming now, or streamed since the history was read, or streamed here and now in the history
 * (`text`, the history's text of it): the row goes on showing the turn as it streamed, built once.
 */
export const LiveReplyRow = memo(function LiveReplyRow(props: RowActions & { turn: Turn; text?: string }) {
  const { turn, text } = props;
  const ended = isTerminal(turn.state);
  // What the copy actions copy, which show once the reply has ended: joining a long reply's parts at
  // every streamed frame cost more and more of each frame (1.2 s of a 1 MB reply's stream in bench:ui).
  const joined = useMemo(
    () =>
      ended && text === undefined
        ? turn.parts
            .filter((p): p is TextPart => p.type === 'text')
            .map((p) => p.text)
            .join('\n\n')
        : '',
    [turn.parts, ended, text],
  );
  return <ReplyTurn {...props} text={text ?? joined} />;
});

/** A turn's reply: Retry beside the reason of a failed or stopped one, the actions under any other. */
function ReplyTurn(props: RowActions & { turn: Turn; text: string }) {
  const { turn } = props;
  const ended = turn.state === 'error' || turn.state === 'stopped';
  return (
    <TurnReply
      agentId={props.agentId}
      sessionId={props.sessionId}
      turn={turn}
      onRetry={ended ? retryFor(props) : undefined}
      actions={isTerminal(turn.state) ? <Actions {...props} ended={ended} /> : null}
    />
  );
}

function Actions(props: RowActions & { text: string; ended?: boolean }) {
  const { agentId, sessionId, branch } = props;
  return (
    <ReplyActions
      text={props.text}
      always={props.context.lastReply}
      onRetry={props.context.lastReply && !props.ended ? retryFor(props) : undefined}
      onBranch={branch ? () => branchAt(agentId, sessionId, branch) : undefined}
    />
  );
}

function retryFor(props: RowActions): (() => Promise<string>) | undefined {
  const text = props.context.retryText;
  if (props.busy || text === undefined) return undefined;
  return () => redoExchange(props.agentId, props.sessionId, text, text);
}

function editFor(props: RowActions, was: string): ((text: string) => Promise<string>) | undefined {
  if (props.busy || !props.context.lastUser) return undefined;
  return (text) => redoExchange(props.agentId, props.sessionId, was, text);
}
