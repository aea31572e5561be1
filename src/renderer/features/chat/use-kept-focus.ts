import { useCallback, useLayoutEffect, useRef, type RefObject } from 'react';
import { controlsOf, enter, MESSAGE, messageAt, nameOf, rowOf } from './roving-log-dom';

/** Where the focus is in the log: its row counted from the newest, and the message's control holding it. */
interface Held {
  element: HTMLElement;
  fromEnd: number;
  control: number;
  name: string;
}

/**
 * The history read again (a slow host's answer can come while the person walks the transcript) draws the
 * same messages as new rows: the focus they held would fall to the page. This keeps where it was (`hold`,
 * on every focus in the log) and, after a commit that dropped it, puts it back on the same row, counted
 * from the newest, and the same control of that message when it still has the same name. `restored` makes
 * the row the log's Tab stop first. `letGo` forgets it when the person takes the focus out of the log.
 */
export function useKeptFocus(
  scroller: RefObject<HTMLDivElement | null>,
  rowCount: number,
  restored: (row: number) => void,
) {
  const held = useRef<Held | null>(null);
  const rowsShown = useRef(rowCount);
  const hold = useCallback(() => {
    const focused = document.activeElement as HTMLElement | null;
    const message = focused?.closest<HTMLElement>(MESSAGE);
    if (!focused || !message || !scroller.current?.contains(message)) return void (held.current = null);
    const control = focused === message ? -1 : controlsOf(message).indexOf(focused);
    const fromEnd = rowsShown.current - 1 - rowOf(message);
    held.current = { element: focused, fromEnd, control, name: nameOf(focused) };
  }, [scroller]);

  // After each commit: follow the held focus, or put it back where it was if its row was drawn anew.
  useLayoutEffect(() => {
    rowsShown.current = rowCount;
    const was = held.current;
    if (!was) return;
    if (was.element.isConnected) return hold();
    held.current = null;
    const lost = !document.activeElement || document.activeElement === document.body;
    const row = rowCount - 1 - was.fromEnd;
    const message = messageAt(scroller.current, row);
    if (!lost || !message) return;
    restored(row);
    const control = was.control < 0 ? undefined : controlsOf(message)[was.control];
    if (control && nameOf(control) === was.name) enter(message, control);
    else message.focus();
  });

  const letGo = useCallback((left: EventTarget) => {
    // The person took the focus elsewhere (a removed row would no longer be in the page): nothing to keep.
    queueMicrotask(() => {
      if (held.current?.element === left && (left as HTMLElement).isConnected) held.current = null;
    });
  }, []);

  return { hold, letGo };
}
