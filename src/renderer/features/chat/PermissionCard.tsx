import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { permissionKey, usePermissionsStore } from '../../stores/permissions-store';
import { useNow } from '../../ui/use-now';
import type { PermissionPart, ToolPart } from '../../model/turn-reducer';
import { askedPermission, optionLabel, permissionView, type PermissionView } from './permission-view';
import { PermissionAnswers } from './PermissionAnswers';
import { useApprovalRulesStore } from '../../stores/approval-rules-store';
import { useAgentConfigStore } from '../../stores/agent-config-store';
import './permission.css';
import { showDirectionControls } from '../../model/bidi-controls';
import { useUiStore } from '../../stores/ui-store';

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
  const closed = usePermissionsStore((s) => s.closed[k]);
  const lifetime = usePermissionsStore.getState();
  const now = useNow(1000);
  useEffect(() => lifetime.noteSeen(sessionId, part.id), [lifetime, sessionId, part.id]);

  const expiresAt = lifetime.expiresAt(sessionId, part.id) ?? (seenAt ?? now) + 600_000;
  const left = expiresAt - lifetime.clock.now();
  const expired = !part.resolved && left <= 0;
  const open = !part.resolved && !closed && !expired && props.turnOpen;
  // The card re-renders each second (its countdown): the view (a diff, the raw JSON) is worked out once.
  const view = useMemo(() => permissionView(part.toolCall, about), [part.toolCall, about]);
  const asked = askedPermission(part, view);
  const byRule = useApprovalRulesStore((s) => s.answeredBy[k]);
  const checking = useApprovalRulesStore((s) => s.checking[k]);
  const tool = part.tool ?? view.kind ?? 'A tool';
  // The answers go once one is chosen: the focus they had goes back to the message box, not the page body.
  // A layout effect, so it is asked before the log's kept focus (use-kept-focus.ts, a layout effect of an
  // ancestor, so later in the same commit) puts a focus that fell to the body back on the message: when the
  // answer came before the next frame, the chosen button was still focused and held there.
  const card = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    if (!open && (document.activeElement === document.body || card.current?.contains(document.activeElement)))
      useUiStore.getState().focusComposer();
  }, [open]);

  if (part.resolved) {
    // Answered: one line that says what was chosen (and by which rule); what was asked stays one click away.
    return (
      <section
        ref={card}
        className="permission-card folded"
        aria-label={`Permission request: ${part.title ?? tool}`}
      >
        <details>
          <summary className="permission-outcome">
            {byRule
              ? byRule.effect === 'allow'
                ? 'Allowed by your rule'
                : 'Rejected by your rule'
              : answeredWords(part)}
            <span className="muted"> · {showDirectionControls(part.title ?? String(tool))}</span>
          </summary>
          {view.path ? <p className="permission-path">{showDirectionControls(view.path)}</p> : null}
          <WhatItDoes view={view} />
        </details>
        {byRule ? (
          <button
            type="button"
            className="link permission-manage"
            aria-label="Manage this agent’s permission rules"
            onClick={() => useAgentConfigStore.getState().open(agentId, 'permissions')}
          >
            Manage
          </button>
        ) : null}
      </section>
    );
  }

  return (
    <section
      ref={card}
      className={`permission-card ${open ? 'open' : 'settled'}`}
      aria-label={`Permission request: ${part.title ?? tool}`}
    >
      <header>
        <strong>Permission needed{view.kind ? ` to ${kindWords[view.kind] ?? view.kind}` : ''}</strong>
        {open ? (
          <span className="countdown" aria-label="Time left to answer">
            {countdown(left)} left
          </span>
        ) : null}
      </header>
      <p className="permission-title">
        <span className="muted">Tool: </span>
        {String(tool)}
        {part.title && part.title !== tool ? ` — ${showDirectionControls(part.title)}` : ''}
      </p>
      {view.path ? <p className="permission-path">{showDirectionControls(view.path)}</p> : null}
      <WhatItDoes view={view} />
      {open ? (
        <p className="visually-hidden" role="alert">
          {`Permission needed${view.kind ? ` to ${kindWords[view.kind] ?? view.kind}` : ''}. Shift+Tab from the message box reaches the answers.`}
        </p>
      ) : null}
      {open && checking ? (
        <p className="permission-outcome" role="status">
          Checking your rules…
        </p>
      ) : open ? (
        <PermissionAnswers agentId={agentId} sessionId={sessionId} part={part} asked={asked} />
      ) : (
        <p className="permission-outcome" role="status">
          {part.resolved
            ? answeredWords(part)
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

/** What was chosen, in a few words ("Allowed once", "Rejected"); "Answered" when another window chose. */
function answeredWords(part: PermissionPart): string {
  const option = part.options.find((o) => o.optionId === part.chosen);
  if (!option) return 'Answered';
  const words: Record<string, string> = {
    allow_once: 'Allowed once',
    allow_always: 'Always allowed',
    reject_once: 'Rejected',
    reject_always: 'Always rejected',
  };
  return (option.kind && words[option.kind]) || `Answered: ${optionLabel(option)}`;
}

/** The change an edit will make, or the command line a command will run; the raw request behind Details. */
function WhatItDoes({ view }: { view: PermissionView }) {
  return (
    <>
      {view.diff ? (
        <div
          className="permission-diff"
          aria-label={view.diff.created ? 'New file content' : 'Changes to the file'}
        >
          <p className="muted">{view.diff.created ? 'Creates the file with:' : 'Changes:'}</p>
          <pre>
            {view.diff.lines.map((line, i) => (
              <span
                key={i}
                className={`diff-line diff-${line.sign === '+' ? 'add' : line.sign === '-' ? 'remove' : 'same'}`}
              >
                {line.sign} {line.text}
                {'\n'}
              </span>
            ))}
          </pre>
          {view.diff.truncated ? <p className="muted">More lines in Details.</p> : null}
        </div>
      ) : null}
      {view.command ? (
        <pre className="permission-command" aria-label="Command line">
          $ {view.command}
        </pre>
      ) : null}
      {view.raw !== '{}' ? (
        <details className="permission-raw">
          <summary>Details</summary>
          <pre className="permission-detail">{view.raw}</pre>
        </details>
      ) : null}
    </>
  );
}
