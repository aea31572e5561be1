import type { Page } from '@playwright/test';

/**
 * With `E2E_LATE_ANSWERS=<ms>`, every answer of the host to the page arrives up to that many milliseconds
 * late, each on its own draw, while the stream's events cross at once: the order a busy or distant host
 * gives. A run of the suite so set finds the places where the page trusts an answer to come before the
 * stream tells the same story, or before the person moves on.
 */
export async function lateAnswers(page: Page): Promise<void> {
  const most = Number(process.env['E2E_LATE_ANSWERS'] ?? 0);
  if (!(most > 0)) return;
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
