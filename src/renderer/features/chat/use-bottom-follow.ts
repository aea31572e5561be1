import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import { useUiStore } from '../../stores/ui-store';

const nearBottomPx = 48;

/**
 * Where the transcript stands: at the bottom it follows a growing reply, rows measured taller and the
 * list itself resizing; the person scrolling up (wheel, keys, the scrollbar, a press dragging past an edge)
 * lets it go. It opens each conversation where the person left it, or at the bottom. Only the person
 * leaves the bottom: the list's own moves fire scroll events too, and read as "not at the bottom" they
 * stopped a conversation short of its last message.
 */
export function useBottomFollow(
  scroller: RefObject<HTMLDivElement | null>,
  sessionId: string,
  contentHeight: number,
  rowCount: number,
) {
  const atBottom = useRef(true);
  /** The person moved the list since it was last at the bottom. */
  const personScrolled = useRef(false);
  const anchorFromBottom = useRef<number | null>(null);
  const follow = useRef(0);

  // Read the height in the next frame, where layout happens anyway, not inside React's commit, where
  // reading it would lay the page out a second time.
  const followBottom = useCallback(() => {
    const element = scroller.current;
    if (!element || follow.current) return;
    follow.current = requestAnimationFrame(() => {
      follow.current = 0;
      if (atBottom.current) element.scrollTop = element.scrollHeight;
    });
  }, [scroller]);
  useEffect(() => () => cancelAnimationFrame(follow.current), []);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const memory = useUiStore.getState().scroll[sessionId];
    const place = () => {
      element.scrollTop = element.scrollHeight - element.clientHeight - (memory?.fromBottom ?? 0);
      atBottom.current = !memory || memory.fromBottom < nearBottomPx;
    };
    place();
    const frame = requestAnimationFrame(place);
    return () => {
      cancelAnimationFrame(frame);
      const fromBottom = element.scrollHeight - element.clientHeight - element.scrollTop;
      useUiStore.getState().rememberScroll(sessionId, { fromBottom: Math.max(0, fromBottom) });
    };
  }, [scroller, sessionId]);

  // Earlier messages arrived: keep the same distance from the bottom so nothing jumps.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    if (anchorFromBottom.current !== null) {
      element.scrollTop = element.scrollHeight - anchorFromBottom.current;
      anchorFromBottom.current = null;
    } else if (atBottom.current) followBottom();
  }, [scroller, contentHeight, rowCount, followBottom]);

  // The list itself grew or shrank (the message box took more lines, a banner came).
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const resized = new ResizeObserver(() => {
      if (atBottom.current) followBottom();
    });
    resized.observe(element);
    return () => resized.disconnect();
  }, [scroller, followBottom]);

  return useMemo(
    () => ({
      /** The list scrolled, by the person or by itself. */
      scrolled(element: HTMLElement): void {
        if (element.scrollHeight - element.scrollTop - element.clientHeight < nearBottomPx) {
          atBottom.current = true;
          personScrolled.current = false;
        } else if (personScrolled.current) atBottom.current = false;
        // It moved itself off the bottom (the virtualiser keeping a row in place from an offset it had
        // not yet heard was changed, on a busy machine after the follow had run): go back down.
        else if (atBottom.current) followBottom();
      },
      /** Earlier rows will be put above: keep this distance from the bottom when they come. */
      keepDistance(element: HTMLElement): void {
        anchorFromBottom.current = element.scrollHeight - element.scrollTop;
      },
      /** The wheel, a touch, a key, the scrollbar. */
      scrolledByPerson(): void {
        personScrolled.current = true;
      },
      /** A press in a message, which scrolls the list while it lasts (selecting past an edge, autoscroll). */
      pressed(): void {
        personScrolled.current = true;
        // A press that moved nothing leaves the list's own moves to be followed again.
        const released = () => {
          if (atBottom.current) personScrolled.current = false;
        };
        window.addEventListener('pointerup', released, { once: true, capture: true });
      },
      /** Down to the bottom, and following it (the person's own new message). */
      toBottom(): void {
        atBottom.current = true;
        personScrolled.current = false;
      },
      /** Somewhere else was chosen (a search result): stop following. */
      leaveBottom(): void {
        atBottom.current = false;
      },
    }),
    [followBottom],
  );
}
