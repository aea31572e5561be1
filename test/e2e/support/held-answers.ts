import type { Page } from '@playwright/test';
import { lateMost, routedBySpec } from './late-answers';

/**
 * Holds the host's answers to one bridge call (`name`, e.g. `createConversation`), or to each of several,
 * on the page's bridge socket while `hold()` is in force, until `release()`, which lets them go in the
 * order the host gave them: the call itself reaches the host at once, so only its answer is late, as on a
 * busy machine. With `calls`, the calls are held instead, so the host serves them late (after what the page
 * did meanwhile). Everything else crosses unchanged, or as late as `E2E_LATE_ANSWERS` makes it.
 */
export async function heldAnswers(
  page: Page,
  name: string | readonly string[],
  options: { calls?: boolean } = {},
): Promise<{ hold(): void; release(): void; answered(): number }> {
  const names = new Set(typeof name === 'string' ? [name] : name);
  let gate: Promise<void> | undefined;
  let open = () => {};
  let answered = 0;
  routedBySpec.add(page);
  const most = lateMost();
  await page.routeWebSocket(/\/desk$/, (socket) => {
    const host = socket.connectToServer();
    const calls = new Set<number>();
    socket.onMessage((message) => {
      const call = JSON.parse(String(message)) as { type: string; id?: number; name?: string };
      const named = call.type === 'call' && names.has(call.name!);
      if (named) calls.add(call.id!);
      const wait = named && options.calls ? gate : undefined;
      if (wait) void wait.then(() => host.send(message));
      else host.send(message);
    });
    host.onMessage((message) => {
      const answer = JSON.parse(String(message)) as { type: string; id?: number };
      const ours = answer.type === 'result' && calls.has(answer.id!);
      if (ours) answered += 1;
      const wait = ours && !options.calls ? gate : undefined;
      if (wait) void wait.then(() => socket.send(message));
      // Under E2E_LATE_ANSWERS the other answers are late as lateAnswers makes them, which this route replaces.
      else if (answer.type === 'result' && most > 0)
        setTimeout(() => socket.send(message), Math.random() * most);
      else socket.send(message);
    });
  });
  return {
    hold: () => (gate = new Promise<void>((resolve) => (open = resolve))),
    release: () => {
      open();
      gate = undefined;
    },
    /** How many answers to the named calls the host gave so far (held or not). */
    answered: () => answered,
  };
}
