/** The transcript's DOM as the roving focus sees it: its messages, their controls, and the Tab order marks. */

/** What can take focus inside a message: it is reachable only while that message holds the focus. */
export const INNER = 'a[href], button, summary, input, textarea, select, [tabindex]:not(article)';
export const MESSAGE = '.message-row article.message';
/**
 * Blocks that scroll when their lines are long (code, a tool's details, a diff): Chromium makes such a
 * scroller a Tab stop of its own, so outside a message it is kept out of the Tab order too.
 */
export const SCROLLER = 'pre';
/** Holds an element's own tabindex ('' for none) while the roving focus keeps it out of the Tab order. */
export const MARK = 'data-roving';

/** A message's controls in document order, hidden or not: the same list for the same message drawn again. */
export const controlsOf = (message: HTMLElement) => [
  ...message.querySelectorAll<HTMLElement>(`${INNER}, ${SCROLLER}`),
];
export const nameOf = (element: HTMLElement) =>
  element.getAttribute('aria-label') ?? element.textContent ?? '';
/** The row index of the transcript row holding `element` (NaN outside a row). */
export const rowOf = (element: Element) =>
  Number(element.closest<HTMLElement>('.message-row')?.dataset['index']);
/** The message drawn in row `index`, if that row is in the DOM. */
export const messageAt = (root: HTMLElement | null | undefined, index: number) =>
  root?.querySelector<HTMLElement>(`.message-row[data-index="${index}"] article.message`) ?? undefined;

/** Opens a message's controls to Tab (the focus handler keeps them open while the focus is inside). */
export function enter(message: HTMLElement, control: HTMLElement): void {
  for (const inner of message.querySelectorAll<HTMLElement>(`[${MARK}]`)) release(inner);
  control.focus();
}

/** Gives a control back its own tabindex, kept while it was out of the Tab order. */
export function release(inner: HTMLElement): void {
  const saved = inner.getAttribute(MARK);
  if (saved) inner.setAttribute('tabindex', saved);
  else inner.removeAttribute('tabindex');
  inner.removeAttribute(MARK);
}
