import { useCallback, useEffect, useRef, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';
import { enter, INNER, MARK, MESSAGE, messageAt, release, rowOf, SCROLLER } from './roving-log-dom';
import { useKeptFocus } from './use-kept-focus';

/** How many messages Page Up and Page Down move. */
const pageStep = 5;

/** Where Enter takes the focus in a message: a waiting permission's first answer, else its first control. */
function firstControl(message: HTMLElement): HTMLElement | undefined {
  const answer = message.querySelector<HTMLElement>(
    '.permission-card.open .permission-options button:not(:disabled)',
  );
  if (answer) return answer;
  return [...message.querySelectorAll<HTMLElement>(INNER)].find(
    (e) =>
      (e.hasAttribute(MARK) || e.tabIndex >= 0) &&
      !e.matches(`:disabled, ${SCROLLER}`) &&
      e.getClientRects().length > 0,
  );
}

/**
 * The roving focus of a log: the transcript is one Tab stop. Arrow keys (and Home, End, Page Up, Page
 * Down) move between messages. A message's own controls (Thought, a tool's Details, a code block's Copy,
 * links, Copy, Retry, Edit, Branch, a permission's answers) are no Tab stops while the message itself has
 * the focus: Enter goes into the message (to a permission's first answer if one waits, else its first
 * control), Tab and Shift+Tab then walk its controls, and Escape comes back out to the message. Tab from
 * the message itself leaves the transcript. Rows are virtualised, so the tab order is applied to whatever
 * rows are in the DOM, again whenever they change.
 */
export function useRovingLog(
  scroller: RefObject<HTMLDivElement | null>,
  scrollToIndex: (index: number) => void,
  rowCount: number,
) {
  /** The row index that holds the log's Tab stop; null means the newest message. */
  const active = useRef<number | null>(null);
  const frame = useRef(0);
  // A new message while the focus is elsewhere: coming back to the transcript starts at the newest again.
  useEffect(() => {
    if (!scroller.current?.contains(document.activeElement)) active.current = null;
  }, [scroller, rowCount]);

  const apply = useCallback(() => {
    const root = scroller.current;
    if (!root) return;
    const messages = [...root.querySelectorAll<HTMLElement>(MESSAGE)];
    const wanted = active.current;
    const current =
      messages.find((m) => rowOf(m) === wanted) ??
      // The chosen row is out of view (virtualised away), or none was chosen: the newest one shown.
      messages.at(-1);
    for (const message of messages) {
      message.tabIndex = message === current ? 0 : -1;
      // Inside: the focus is on one of the message's controls, not on the message itself.
      const inside = message !== document.activeElement && message.contains(document.activeElement);
      for (const inner of message.querySelectorAll<HTMLElement>(`${INNER}, ${SCROLLER}`)) {
        const saved = inner.getAttribute(MARK);
        const scrolls = inner.matches(SCROLLER) && !inner.hasAttribute('tabindex');
        if (inside && saved !== null) release(inner);
        else if (!inside && saved === null && (inner.tabIndex >= 0 || scrolls)) {
          inner.setAttribute(MARK, inner.getAttribute('tabindex') ?? '');
          inner.setAttribute('tabindex', '-1');
        }
      }
    }
  }, [scroller]);

  const { hold, letGo } = useKeptFocus(scroller, rowCount, (row) => {
    active.current = row;
    apply();
  });

  // Rows mount and grow as they stream: apply again on the next frame after any change.
  useEffect(() => {
    const root = scroller.current;
    if (!root) return;
    const observer = new MutationObserver(() => {
      if (!frame.current)
        frame.current = requestAnimationFrame(() => {
          frame.current = 0;
          apply();
        });
    });
    observer.observe(root, { childList: true, subtree: true });
    apply();
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame.current);
    };
  }, [scroller, apply]);

  const focusRow = useCallback(
    (index: number, tries = 10) => {
      active.current = index;
      const message = messageAt(scroller.current, index);
      if (message) {
        apply();
        message.focus();
        message.scrollIntoView({ block: 'nearest' });
      } else if (tries > 0) {
        scrollToIndex(index);
        requestAnimationFrame(() => focusRow(index, tries - 1));
      }
    },
    [scroller, scrollToIndex, apply],
  );

  const onFocus = useCallback(() => {
    const message = document.activeElement?.closest<HTMLElement>(MESSAGE);
    const index = message ? rowOf(message) : NaN;
    if (Number.isInteger(index)) active.current = index;
    hold();
    apply();
  }, [apply, hold]);

  const onBlur = useCallback(
    (event: FocusEvent<HTMLDivElement>) => {
      apply();
      const left = event.target;
      if (scroller.current?.contains(event.relatedTarget as Node | null)) return;
      letGo(left);
    },
    [apply, scroller, letGo],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>, rowCount: number, isMessageRow: (index: number) => boolean) => {
      const target = event.target as HTMLElement;
      if (!target.matches(MESSAGE)) {
        // Escape from a control of a message back to the message, unless the control used it (an edit box).
        const message = target.closest<HTMLElement>(MESSAGE);
        if (event.key === 'Escape' && !event.shiftKey && message && !event.defaultPrevented) {
          event.preventDefault();
          message.focus();
        }
        return;
      }
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const index = rowOf(target);
      const step = (from: number, by: number, times = 1): number => {
        let found = from;
        for (let i = from + by; i >= 0 && i < rowCount && times > 0; i += by)
          if (isMessageRow(i)) [found, times] = [i, times - 1];
        return found;
      };
      const moves: Record<string, () => number> = {
        ArrowDown: () => step(index, 1),
        ArrowUp: () => step(index, -1),
        PageDown: () => step(index, 1, pageStep),
        PageUp: () => step(index, -1, pageStep),
        Home: () => step(-1, 1),
        End: () => step(rowCount, -1),
      };
      const move = moves[event.key];
      if (move) {
        event.preventDefault();
        focusRow(move());
      } else if (event.key === 'Enter') {
        const first = firstControl(target);
        if (!first) return;
        event.preventDefault();
        enter(target, first);
      }
    },
    [focusRow],
  );

  return { onFocus, onBlur, onKeyDown };
}
