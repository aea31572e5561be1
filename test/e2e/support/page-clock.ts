import type { Page } from '@playwright/test';

/**
 * The app's own waits, run out on the page's clock instead of sat through. Playwright's clock is
 * installed before the page loads; time then flows as usual until a test jumps it, and a jump fires
 * the timers that fell due (Date moves too). The length is the renderer's ARCHIVE_UNDO_MS
 * (src/renderer/stores/archive-store.ts): were it longer, the jump would fire nothing and the spec
 * waiting for the archive to be sent would fail.
 */
export const ARCHIVE_UNDO_MS = 6_000;

/**
 * The renderer's STEADY_CARET_AFTER_MS (src/renderer/ui/steady-caret.ts): how long without input before
 * text boxes stop blinking. steady-caret.spec.ts checks the caret still blinks a second before it.
 */
export const STEADY_CARET_AFTER_MS = 10_000;

/** Lets the page's time be moved; call before the page loads the app. */
export async function controlPageTime(page: Page): Promise<void> {
  await page.clock.install();
}

/** The time for Undo runs out: the held archive is sent. */
export async function runOutUndo(page: Page): Promise<void> {
  await page.clock.fastForward(ARCHIVE_UNDO_MS);
}
