import './steady-caret.css';

/**
 * How long the app waits with no key, pointer or focus change before text boxes show a steady caret, as
 * desktop toolkits do (GTK's gtk-cursor-blink-timeout is 10 s; Windows stops after about 5 s). A steady
 * caret spares the window a repaint every 500 ms while nothing happens, and people who find blinking hard.
 */
export const STEADY_CARET_AFTER_MS = 10_000;

/** The class on <html> that steady-caret.css turns into `caret-animation: manual` (inherited by every box). */
const STEADY = 'caret-steady';

/** What counts as the person doing something: the caret blinks again at once. */
const WAKES = ['keydown', 'pointerdown', 'pointermove', 'wheel', 'focusin', 'focusout'] as const;

/**
 * Lets the caret blink only while the person is at work: after STEADY_CARET_AFTER_MS without input it
 * stays lit. One timer, re-armed by input and firing once, so an idle window runs none. Returns the release.
 */
export function steadyCaretWhenIdle(doc: Document = document): () => void {
  const root = doc.documentElement;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let steady = false;
  const rest = () => {
    timer = undefined;
    steady = true;
    root.classList.add(STEADY);
  };
  const wake = () => {
    if (steady) {
      steady = false;
      root.classList.remove(STEADY);
    }
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(rest, STEADY_CARET_AFTER_MS);
  };
  // Capturing, so a component that stops an event's propagation still counts as input.
  const options = { capture: true, passive: true };
  for (const type of WAKES) doc.addEventListener(type, wake, options);
  wake();
  return () => {
    for (const type of WAKES) doc.removeEventListener(type, wake, options);
    if (timer !== undefined) clearTimeout(timer);
    root.classList.remove(STEADY);
  };
}
