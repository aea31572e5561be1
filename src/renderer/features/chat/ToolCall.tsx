import { memo } from 'react';
import type { ToolPart } from '../../model/turn-reducer';
import { showDirectionControls } from '../../model/bidi-controls';

const statusWords: Record<string, string> = {
  pending: 'Waiting',
  in_progress: 'Running',
  completed: 'Done',
  failed: 'Failed',
};

/** A tool call, updated in place as its status changes. */
export const ToolCall = memo(function ToolCall({ part }: { part: ToolPart }) {
  const status = part.status ? (statusWords[part.status] ?? part.status) : 'Waiting';
  const detail =
    typeof part.detalle === 'string'
      ? part.detalle
      : part.detalle
        ? JSON.stringify(part.detalle, null, 2)
        : '';
  return (
    <div
      className={`tool-call status-${part.status ?? 'pending'}`}
      role="group"
      aria-label={`Tool call: ${part.title ?? part.id}`}
    >
      <div className="tool-head">
        <span className="tool-kind">{part.kind ?? 'tool'}</span>
        <span className="tool-title">{showDirectionControls(part.title ?? part.id)}</span>
        <span className="tool-status" aria-label="Tool status">
          {status}
        </span>
      </div>
      {part.path ? <div className="tool-path">{showDirectionControls(part.path)}</div> : null}
      {detail ? (
        <details className="tool-detail">
          <summary>Details</summary>
          <pre>{detail}</pre>
        </details>
      ) : null}
    </div>
  );
});
