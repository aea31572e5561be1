import { useEffect } from 'react';
import { permissionKey, usePermissionsStore } from '../../stores/permissions-store';
import { useNow } from '../../ui/use-now';
import type { PermissionPart, ToolPart } from '../../model/turn-reducer';

function countdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

const kindWords: Record<string, string> = {
  read: 'read',
  edit: 'edit a file',
  delete: 'delete',
  move: 'move',
  search: 'search',
  execute: 'run a command',
  fetch: 'fetch from the web',
};

/** Everything the tool call carries, readable: strings as they are, objects as indented JSON. */
function toolDetail(value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

function optionLabel(option: PermissionPart['options'][number]): string {
  if (option.name) return option.name;
  const words: Record<string, string> = {
    allow_once: 'Allow once',
    allow_always: 'Always allow',
    reject_once: 'Reject',
    reject_always: 'Always reject',
  };
  return (option.kind && words[option.kind]) || option.optionId;
}

/**
 * A permission prompt in the reply: which tool asks, everything it wants to
 * do, every option, and the time left before the service denies it.
 */
export function PermissionCard(props: {
  agentId: string;
  sessionId: string;
  part: PermissionPart;
  /** The tool call this prompt is about, for its path and detail. */
  about?: ToolPart;
  turnOpen: boolean;
}) {
  const { agentId, sessionId, part, about } = props;
  const k = permissionKey(sessionId, part.id);
  const seenAt = usePermissionsStore((s) => s.seenAt[k]);
  const answering = usePermissionsStore((s) => s.answering[k]);
  const closed = usePermissionsStore((s) => s.closed[k]);
  const lifetime = usePermissionsStore.getState();
  const now = useNow(1000);
  useEffect(() => lifetime.noteSeen(sessionId, part.id), [lifetime, sessionId, part.id]);

  const expiresAt = lifetime.expiresAt(sessionId, part.id) ?? (seenAt ?? now) + 600_000;
  const left = expiresAt - lifetime.clock.now();
  const expired = !part.resolved && left <= 0;
  const open = !part.resolved && !closed && !expired && props.turnOpen;
  const call = (part.toolCall ?? {}) as {
    kind?: string;
    locations?: { path?: string }[];
    rawInput?: unknown;
  };
  const tool = part.tool ?? call.kind ?? about?.kind ?? 'A tool';
  const path = call.locations?.[0]?.path ?? about?.path;
  const detail = toolDetail(part.toolCall ?? about?.detalle);

  return (
    <section
      className={`permission-card ${open ? 'open' : 'settled'}`}
      aria-label={`Permission request: ${part.title ?? tool}`}
    >
      <header>
        <strong>Permission needed{call.kind ? ` to ${kindWords[call.kind] ?? call.kind}` : ''}</strong>
        {open ? (
          <span className="countdown" aria-label="Time left to answer">
            {countdown(left)} left
          </span>
        ) : null}
      </header>
      <p className="permission-title">
        <span className="muted">Tool: </span>
        {String(tool)}
        {part.title && part.title !== tool ? ` — ${part.title}` : ''}
      </p>
      {path ? <p className="permission-path">{path}</p> : null}
      {detail ? <pre className="permission-detail">{detail}</pre> : null}
      {open ? (
        <div className="permission-options" role="group" aria-label="Answer">
          {part.options.map((option) => (
            <button
              key={option.optionId}
              type="button"
              className={option.kind?.startsWith('reject') ? 'danger' : 'primary'}
              disabled={answering !== undefined}
              onClick={() => void lifetime.answer(agentId, sessionId, part.id, option.optionId)}
            >
              {answering === option.optionId ? 'Sending…' : optionLabel(option)}
            </button>
          ))}
        </div>
      ) : (
        <p className="permission-outcome" role="status">
          {part.resolved
            ? 'Answered.'
            : closed
              ? closed
              : expired
                ? 'No answer in 10 minutes, so the request was denied.'
                : 'This request is no longer open.'}
        </p>
      )}
    </section>
  );
}
