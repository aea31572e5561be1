import { describe, expect, it } from 'vitest';
import { StreamGrantWatch } from '../../../../src/service/http/stream-grant-watch';

// The watch over real web streams: an endless body ends when its grant stops being good, its source is
// cancelled (so the producer releases what it holds), and streams sharing a grant cost one check per tick.
function endlessBody(): { response: Response; cancelled: Promise<unknown> } {
  let onCancel: (reason: unknown) => void = () => {};
  const cancelled = new Promise((resolve) => (onCancel = resolve));
  const body = new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      controller.enqueue(new TextEncoder().encode(': ping\n\n'));
    },
    cancel: (reason) => onCancel(reason),
  });
  return { response: new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }), cancelled };
}

async function readToEnd(response: Response): Promise<number> {
  const reader = response.body!.getReader();
  let chunks = 0;
  while (!(await reader.read()).done) chunks++;
  return chunks;
}

describe('StreamGrantWatch', () => {
  it('ends the body and cancels its source once the grant is gone; keeps status and headers', async () => {
    const watch = new StreamGrantWatch(20);
    let allowed = true;
    const { response, cancelled } = endlessBody();
    const watched = watch.watch(response, 'token-a', () => allowed);
    expect(watched.headers.get('content-type')).toBe('text/event-stream');
    setTimeout(() => (allowed = false), 100);
    const chunks = await readToEnd(watched);
    expect(chunks).toBeGreaterThan(0);
    expect(await cancelled).toMatch(/sign-in/);
  });

  it('checks a grant shared by several streams once per tick', async () => {
    const watch = new StreamGrantWatch(20);
    let shared = 0;
    let ticks = 0; // a stream of its own grant: checked exactly once per tick
    const bodies = [endlessBody(), endlessBody(), endlessBody()].map(({ response }) =>
      watch.watch(response, 'shared', () => ++shared > 0),
    );
    const other = watch.watch(endlessBody().response, 'other', () => ++ticks > 0);
    await expect.poll(() => ticks, { timeout: 5000 }).toBeGreaterThan(3);
    expect(shared).toBe(ticks); // three streams, one check per tick
    await Promise.all([...bodies, other].map((body) => body.body!.cancel()));
  });
});
