import { performance } from 'node:perf_hooks';
import { benchRow } from './bench-row';

/** A reply's text as timed by its reader: the first piece, the last, and how many characters (ms from the start). */
export interface Timed {
  first: number;
  last: number;
  chars: number;
}

/** Reads an SSE body, calling `on` with each event's name, data and arrival time. */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  on: (event: string, data: string, at: number) => boolean,
) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    const at = performance.now();
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: ?(.*)$/m.exec(block)?.[1] ?? 'message';
      const data = [...block.matchAll(/^data: ?(.*)$/gm)].map((m) => m[1]).join('\n');
      if (!/^data:/m.test(block)) continue; // a heartbeat comment
      if (on(event, data, at)) {
        await reader.cancel();
        return;
      }
    }
  }
}

/** The provider's own stream, read straight: the first text and the rate. */
export async function providerStream(baseURL: string, key: string): Promise<Timed> {
  const start = performance.now();
  const response = await fetch(`${baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'bench-model', stream: true, messages: [{ role: 'user', content: 'go' }] }),
  });
  const timed: Timed = { first: 0, last: 0, chars: 0 };
  await readSse(response.body!, (_event, data, at) => {
    if (data === '[DONE]') return true;
    const text = (JSON.parse(data) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta
      ?.content;
    if (text) {
      if (!timed.chars) timed.first = at - start;
      timed.last = at - start;
      timed.chars += text.length;
    }
    return false;
  });
  return timed;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rate = (t: Timed) => t.chars / ((t.last - t.first) / 1000);

/**
 * The medians of a path's turns and of the provider's own streams, and the two rows judged on them: the
 * first text at most 1.1 × the provider's + 20 ms, and the same rate (at least 0.9 ×).
 */
export function pathRows(
  row: { id: string; firstText: string; rate: string },
  path: Timed[],
  direct: Timed[],
): { first: number; firstDirect: number; rate: number; rateDirect: number } {
  const figures = {
    first: median(path.map((t) => t.first)),
    firstDirect: median(direct.map((t) => t.first)),
    rate: median(path.map(rate)),
    rateDirect: median(direct.map(rate)),
  };
  const goal = 1.1 * figures.firstDirect + 20;
  benchRow({
    id: `${row.id}.firstText.ratio`,
    what: row.firstText,
    value: figures.first / figures.firstDirect,
    unit: '×',
    goal: `≤ 1.1× + 20 ms (${figures.first.toFixed(0)} ms ≤ ${goal.toFixed(0)} ms)`,
    ok: figures.first <= goal,
  });
  benchRow({
    id: `${row.id}.rate.ratio`,
    what: row.rate,
    value: figures.rate / figures.rateDirect,
    unit: '×',
    goal: '≥ 0.9× (the same rate)',
    ok: figures.rate / figures.rateDirect >= 0.9,
  });
  return figures;
}
