import { useCallback, useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';

/** What can take focus inside a message: it is reachable only while that message holds the focus. */
const INNER = 'a[href], button, summary, input, textarea, select, [tabindex]:not(article)';
const MESSAGE = '.message-row article.message';
/** Holds an element's own tabindex ('' for none) while this hook keeps it out of the Tab order. */
const MARK = 'data-roving';

/**
 * The roving focus of a log: the transcript is one Tab stop. Arrow keys (and Home, End) move between
 * messages, Enter or Space opens or closes a message's details (Thought, tool Details), and Tab from a
 * message walks its own actions before leaving for the message box. Rows are virtualised, so the
 * tab order is applied to whatever rows are in the DOM, again whenever they change.
 */
export function useRovingLog(
  scroller: RefObject<HTMLDivElement | null>,
  scrollToIndex: (index: number) => void,
) {
  /** The row index that holds the log's Tab stop; null means the newest message. */
  const active = useRef<number | null>(null);
  const frame = useRef(0);

  const apply = useCallback(() => {
    const root = scroller.current;
    if (!root) return;
    const messages = [...root.querySelectorAll<HTMLElement>(MESSAGE)];
    const indexOf = (m: HTMLElement) => Number(m.closest<HTMLElement>('.message-row')?.dataset['index']);
    const wanted = active.current;
    const current =
      messages.find((m) => indexOf(m) === wanted) ??
      // The chosen row is out of view (virtualised away), or none was chosen: the newest one shown.
      messages.at(-1);
    for (const message of messages) {
      message.tabIndex = message === current ? 0 : -1;
      const holdsFocus = message.contains(document.activeElement);
      for (const inner of message.querySelectorAll<HTMLElement>(INNER)) {
        const saved = inner.getAttribute(MARK);
        if (holdsFocus && saved !== null) {
          if (saved) inner.setAttribute('tabindex', saved);
          else inner.removeAttribute('tabindex');
          inner.removeAttribute(MARK);
        } else if (!holdsFocus && saved === null && inner.tabIndex >= 0) {
          inner.setAttribute(MARK, inner.getAttribute('tabindex') ?? '');
          inner.setAttribute('tabindex', '-1');
        }
      }
    }
  }, [scroller]);

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
      const message = scroller.current?.querySelector<HTMLElement>(
        `.message-row[data-index="${index}"] article.message`,
      );
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
    const index = Number(message?.closest<HTMLElement>('.message-row')?.dataset['index']);
    if (Number.isInteger(index)) active.current = index;
    apply();
  }, [apply]);

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>, rowCount: number, isMessageRow: (index: number) => boolean) => {
      const target = event.target as HTMLElement;
      if (!target.matches(MESSAGE)) return;
      const index = Number(target.closest<HTMLElement>('.message-row')?.dataset['index']);
      const step = (from: number, by: number): number => {
        for (let i = from + by; i >= 0 && i < rowCount; i += by) if (isMessageRow(i)) return i;
        return from;
      };
      const moves: Record<string, () => number> = {
        ArrowDown: () => step(index, 1),
        ArrowUp: () => step(index, -1),
        Home: () => step(-1, 1),
        End: () => step(rowCount, -1),
      };
      const move = moves[event.key];
      if (move) {
        event.preventDefault();
        focusRow(move());
      } else if (event.key === 'Enter' || event.key === ' ') {
        const details = [...target.querySelectorAll('details')];
        if (details.length === 0) return;
        event.preventDefault();
        const open = details.some((d) => !d.open);
        for (const d of details) d.open = open;
      }
    },
    [focusRow],
  );

  return { onFocus, onBlur: onFocus, onKeyDown };
}
