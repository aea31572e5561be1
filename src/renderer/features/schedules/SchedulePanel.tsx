import './schedules.css';
import { useEffect, useRef, useState } from 'react';
import type { Schedule } from '../../../shared/api';
import { useConversationsStore } from '../../stores/conversations-store';
import { useSchedulesStore } from '../../stores/schedules-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useNow } from '../../ui/use-now';
import { ScheduleFormView } from './ScheduleFormView';
import { dueWords, repeatWords, soonWords, zoneWords } from '../../model/schedule-form';
import { ErrorLine } from '../../ui/ErrorLine';
import { showDirectionControls } from '../../model/bidi-controls';
import { useMediaQuery, usePanelFocus } from '../../ui/use-panel-focus';

const close = () => useSchedulesStore.getState().openPanel(null);

/** A conversation's scheduled turns: the list with next due times, a form to add one, cancel. */
export function SchedulePanel(props: { agentId: string; sessionId: string }) {
  const { agentId, sessionId } = props;
  const entry = useSchedulesStore((s) => s.bySession[sessionId]);
  // A turn that ran (scheduled or not) may have used up or moved an item: read the list again.
  const lastTurn = useConversationsStore(
    (s) => s.byAgent[agentId]?.items.find((i) => i.id === sessionId)?.lastTurn?.turnId,
  );
  const [cancelling, setCancelling] = useState<Schedule | null>(null);
  const [problem, setProblem] = useState('');
  const now = useNow(30_000);
  // Up to 1100 px wide the panel lies over the chat (schedules.css): there it is a modal dialog.
  const modal = useMediaQuery('(max-width: 1100px)');
  const panel = useRef<HTMLElement>(null);
  const onKeyDown = usePanelFocus(panel, { modal, first: '.schedule-form textarea', onClose: close });

  useEffect(() => {
    void useSchedulesStore.getState().load(agentId, sessionId);
  }, [agentId, sessionId, lastTurn]);

  const items = entry?.items ?? [];
  return (
    <section
      ref={panel}
      className="schedule-panel"
      aria-label="Scheduled messages"
      role={modal ? 'dialog' : undefined}
      aria-modal={modal || undefined}
      onKeyDown={onKeyDown}
    >
      <header className="schedule-head">
        <h3>Scheduled messages</h3>
        <span className="muted small-text">Times are in your time zone, {zoneWords(now)}</span>
        <button type="button" className="link" onClick={close}>
          Close
        </button>
      </header>
      <ErrorLine text={entry?.status === 'error' && entry.error} />
      {entry?.status === 'loading' ? <p className="muted">Loading…</p> : null}
      {entry?.status === 'ready' && items.length === 0 ? (
        <p className="muted">Nothing is scheduled in this conversation.</p>
      ) : null}
      {items.length > 0 ? (
        <ul className="schedule-list" aria-label="Scheduled list">
          {items.map((item) => (
            <li key={item.id} className="schedule-item">
              <div className="schedule-text">
                <span className="schedule-prompt">{showDirectionControls(item.prompt)}</span>
                <span className="muted small-text">
                  Next: <time dateTime={item.dueAt}>{dueWords(item.dueAt)}</time> (
                  {soonWords(item.dueAt, now)}) · {repeatWords(item)}
                </span>
              </div>
              <button type="button" className="small" onClick={() => setCancelling(item)}>
                Cancel
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <ErrorLine text={problem} />
      <ScheduleFormView agentId={agentId} sessionId={sessionId} />
      {cancelling ? (
        <ConfirmDialog
          title="Cancel this scheduled message?"
          confirmLabel="Cancel it"
          danger
          onCancel={() => setCancelling(null)}
          onConfirm={() => {
            const item = cancelling;
            setCancelling(null);
            void useSchedulesStore.getState().cancel(agentId, sessionId, item.id).then(setProblem);
          }}
        >
          <p>
            “{cancelling.prompt}” will not be sent{cancelling.repeatMin ? ' again' : ''}.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
