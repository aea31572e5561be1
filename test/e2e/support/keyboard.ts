import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Moves of a person who uses no mouse: Tab (or Shift+Tab) until an element has the focus, checking at
 * every stop that the focus is on something, not lost to the page body, and drawn where it is.
 */

/** The focused element in a few words (tag, role, name), or 'body' when the focus is lost. */
export const focusedWords = (page: Page): Promise<string> =>
  page.evaluate<string>(`(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return 'body';
    const name = a.getAttribute('aria-label') ?? a.getAttribute('title') ?? (a.textContent ?? '').trim();
    return a.tagName.toLowerCase() + (a.getAttribute('role') ? '[' + a.getAttribute('role') + ']' : '') +
      ' "' + name.slice(0, 40) + '"';
  })()`);

/**
 * The focus is on an element other than the body, and drawn: it matches :focus-visible and shows an
 * outline or a ring (or, for a message of the transcript, its own outline).
 */
export async function expectFocusShown(page: Page): Promise<void> {
  const state = await page.evaluate<{
    lost: boolean;
    visible: boolean;
    drawn: boolean;
    what: string;
  }>(`(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return { lost: true, visible: false, drawn: false, what: 'body' };
    const style = getComputedStyle(a);
    const drawn = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) ||
      style.boxShadow !== 'none';
    return { lost: false, visible: a.matches(':focus-visible'), drawn, what: a.outerHTML.slice(0, 120) };
  })()`);
  expect(state.lost, 'the focus is lost to the page body').toBe(false);
  expect(state.visible && state.drawn, `the focus is not drawn on ${state.what}`).toBe(true);
}

/**
 * Presses Tab (Shift+Tab when `back`) until `target` has the focus; every stop on the way is checked.
 * Past the page's last stop the focus leaves the page once (to the browser), as in any browser, and
 * the next Tab comes back at the other end.
 */
export async function tabTo(page: Page, target: Locator, options: { back?: boolean; max?: number } = {}) {
  const stops: string[] = [];
  for (let i = 0; i < (options.max ?? 40); i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
    const words = await focusedWords(page);
    if (words !== 'body' || stops.at(-1) === 'body') await expectFocusShown(page);
    stops.push(words);
  }
  if (await isFocused(target)) return;
  throw new Error(`Tab never reached ${String(target)}; it went: ${stops.join(' → ')}`);
}

/** Tabs to `target` and presses a key on it (Enter by default). */
export async function tabAndPress(page: Page, target: Locator, key = 'Enter', back = false) {
  await tabTo(page, target, { back });
  await page.keyboard.press(key);
}

const isFocused = (target: Locator): Promise<boolean> =>
  target
    .first()
    .evaluate((element) => element === element.ownerDocument.activeElement, undefined, { timeout: 2000 })
    .catch(() => false);

/** After a dialog closed: the focus is back on something on the page, never the body. */
export async function expectFocusKept(page: Page, on?: Locator): Promise<void> {
  if (on) await expect(on).toBeFocused();
  expect(await focusedWords(page)).not.toBe('body');
}
