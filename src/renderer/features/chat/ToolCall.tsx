import './markdown.css';
import { memo } from 'react';
import type { ToolPart } from '../../model/turn-reducer';
import { showDirectionControls } from '../../model/bidi-controls';
import { toolKindWord, toolStatusWord } from '../../../shared/words/tool-words';

/** How the reply a tool call belongs to ended, when that changes what the call shows. */
export type ToolTurnEnd = 'stopped' | 'error' | undefined;

/**
 * The status a tool call shows: in a reply the person stopped, a call that did not finish was stopped,
 * not failed (agents report a cancelled call as `failed`); in a reply that ended in an error (the agent
 * crashed, the service restarted), a call still waiting or running never will: it was interrupted.
 */
function shownStatus(part: ToolPart, turnEnd: ToolTurnEnd): string {
  if (turnEnd === 'stopped' && part.status !== 'completed') return 'stopped';
  const unfinished = !part.status || part.status === 'pending' || part.status === 'in_progress';
  if (turnEnd === 'error' && unfinished) return 'interrupted';
  return part.status ?? 'pending';
}

/** A tool call, updated in place as its status changes. */
export const ToolCall = memo(function ToolCall(props: { part: ToolPart; turnEnd?: ToolTurnEnd }) {
  const { part } = props;
  const shown = shownStatus(part, props.turnEnd);
  const status = toolStatusWord(shown);
  const kindWord = toolKindWord(part.kind);
  const detail = part.detail ?? '';
  return (
    <div
      className={`tool-call status-${shown}`}
      role="group"
      aria-label={`Tool call: ${part.title ?? part.id}`}
    >
      <div className="tool-head">
        {kindWord ? <span className="tool-kind">{kindWord}</span> : null}
        <span className="tool-title">{showDirectionControls(part.title ?? part.id)}</span>
        <span className="tool-status" aria-label="Tool status">
          {status}
        </span>
      </div>
      {part.path ? <div className="tool-path">{showDirectionControls(shownPath(part.path))}</div> : null}
      {detail ? (
        <details className="tool-detail">
          <summary>Details</summary>
          <pre>{detail}</pre>
        </details>
      ) : null}
    </div>
  );
});

/** The workspace's own root comes as "." (or "./"): a lone dot means nothing to a person. */
function shownPath(path: string): string {
  return path === '.' || path === './' ? 'The workspace' : path;
}
