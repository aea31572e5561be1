import type { Page } from '@playwright/test';

/** The most an answer is late under `E2E_LATE_ANSWERS`, 0 when it is not set. */
export const lateMost = (): number => Number(process.env['E2E_LATE_ANSWERS'] ?? 0) || 0;

/** Pages whose bridge socket a spec routes itself (held-answers.ts), which makes the other answers late. */
export const routedBySpec = new WeakSet<Page>();

/**
 * With `E2E_LATE_ANSWERS=<ms>`, every answer of the host to the page arrives up to that many milliseconds
 * late, each on its own draw, while the stream's events cross at once: the order a busy or distant host
 * gives. A run of the suite so set finds the places where the page trusts an answer to come before the
 * stream tells the same story, or before the person moves on.
 */
export async function lateAnswers(page: Page): Promise<void> {
  const most = lateMost();
  // Playwright asks the socket route registered last first: this one would bypass a spec's own hold.
  if (!(most > 0) || routedBySpec.has(page)) return;
  await page.routeWebSocket(/\/desk$/, (socket) => {
    const host = socket.connectToServer();
    socket.onMessage((message) => host.send(message));
    host.onMessage((message) => {
      const answer = JSON.parse(String(message)) as { type: string };
      if (answer.type !== 'result') return socket.send(message);
      setTimeout(() => socket.send(message), Math.random() * most);
    });
  });
}
