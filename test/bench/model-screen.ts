/**
 * The model agent's speed to the screen (issues 37 and 40): the whole path a person sees, provider →
 * model agent → service → host → bridge → renderer. A scripted OpenAI-protocol provider is found in the
 * service's environment at start, as a person's key would be; the app runs in browser mode in Chromium (the
 * built renderer, the real bridge and host, the embedded service). Each round the provider's own stream is
 * read straight from the same server, then the same reply is asked for by typing a message and pressing
 * Enter; the page records when the reply's text first enters the transcript and when all of it is there
 * (a MutationObserver, so a frame's wait is not counted twice). Goals, as model-agent.ts's:
 * - time to the first text on the screen ≤ 1.1 × the provider's + 20 ms;
 * - text rate on the screen at least 0.9 × the provider's (the same rate).
 * Needs `npm run build` (out/renderer, out/node/model-agent.js): `npm run bench` builds first.
 */
import { subscribe } from 'node:diagnostics_channel';
import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join, resolve } from 'node:path';
import { type Page } from '@playwright/test';
import { startOpenAiServer } from '../support/scripted-providers';
import { openBrowserBench } from './browser-bench';
import { pathRows, providerStream, type Timed } from './provider-stream';

const ROUNDS = Number(process.env.BENCH_MODEL_ROUNDS ?? 7);
const KEY = 'test-key-openai.bench';
/** As model-agent.ts: 60 ms before the first byte, then 300 pieces of 4 characters 3 ms apart. */
const REPLY = { text: 'word'.repeat(300), pieceChars: 4, paceMs: 3, firstByteMs: 60 };
const repo = resolve(import.meta.dirname, '../..');

/** The page's split of a turn's first text (model-screen-page.js): ms after the Enter, `enterAt` on the wall clock. */
interface PageSplit {
  enterAt: number;
  sendLeft: number;
  chunkIn: number;
  painted: number;
}

/** What model-screen-page.js puts on the page. */
interface PageSide {
  __watchNextReply(expected: number): void;
  __nextReply: Promise<Timed & { split: PageSplit }>;
}

/** A turn's first text split where it went, each part in ms (consecutive, summing to the first text). */
interface Split {
  /** Enter to the send leaving the page's socket. */
  page: number;
  /** The bridge and the host, to the service having the POST. */
  toService: number;
  /** Admission, the agent's prompt over ACP and its turn start, to the provider asked. */
  toProvider: number;
  /** The provider to its first byte. */
  provider: number;
  /** From the provider's first byte back to the page: model agent, service SSE, host, bridge. */
  back: number;
  /** The page: the bridge message to the text in the transcript (chunk batcher, store, React). */
  render: number;
  /** Then to the frame that shows it. */
  paint: number;
}

/** When the service had each POST …/messages (the service runs in this process, in browser mode). */
const postsAt: number[] = [];
subscribe('http.server.request.start', (message) => {
  const { request } = message as { request: IncomingMessage };
  if (request.method === 'POST' && /\/messages$/.test(request.url ?? '')) postsAt.push(wallNow());
});
const wallNow = () => performance.timeOrigin + performance.now();

/**
 * Until no reply is running. A round is timed to its last character, but its turn goes on a little (the first
 * one asks the provider for the conversation's title): the next round's message would join that turn, and the
 * title request could take the reply scripted for the next round (seen: a round that never got its reply).
 */
async function turnEnded(page: Page): Promise<void> {
  const running = page.locator('[aria-label="Agent reply"][aria-busy="true"]');
  const deadline = performance.now() + 30_000;
  while ((await running.count()) > 0) {
    if (performance.now() > deadline)
      throw new Error('a reply was still running 30 s after its last character');
    await page.waitForTimeout(20);
  }
}

async function throughScreen(page: Page): Promise<Timed & { split: Split }> {
  await page.evaluate((n) => (globalThis as unknown as PageSide).__watchNextReply(n), REPLY.text.length);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('go');
  await box.press('Enter');
  const timed = await page.evaluate(() => (globalThis as unknown as PageSide).__nextReply);
  const s = timed.split;
  const asked = provider.modelRequests().at(-1)!;
  // Node's times on the page's clock: both are the wall clock at their origin plus a monotonic clock.
  const onPage = (nodeNow: number) => performance.timeOrigin + nodeNow - s.enterAt;
  const posted = postsAt.at(-1)! - s.enterAt;
  const askedAt = onPage(asked.arrivedAt);
  const firstByte = onPage(asked.firstByteAt ?? asked.arrivedAt);
  return {
    ...timed,
    split: {
      page: s.sendLeft,
      toService: posted - s.sendLeft,
      toProvider: askedAt - posted,
      provider: firstByte - askedAt,
      back: s.chunkIn - firstByte,
      render: timed.first - s.chunkIn,
      paint: s.painted - timed.first,
    },
  };
}

/** "page 1 · bridge and host 5 · …": the parts of a first text, in order. */
function showSplit(s: Split): string {
  return [
    `page ${s.page.toFixed(0)}`,
    `bridge and host ${s.toService.toFixed(0)}`,
    `service and agent start ${s.toProvider.toFixed(0)}`,
    `provider's first byte ${s.provider.toFixed(0)}`,
    `back to the page ${s.back.toFixed(0)}`,
    `render ${s.render.toFixed(0)}`,
    `(paint +${s.paint.toFixed(0)})`,
  ].join(' · ');
}

const built = join(repo, 'out/node/model-agent.js');
if (!existsSync(built))
  throw new Error('Run `npm run build` first: the bench loads out/node/model-agent.js.');
process.env.AGENTDESK_MODEL_AGENT_JS ??= built;

const provider = await startOpenAiServer({
  apiKey: KEY,
  models: ['bench-model'],
  fallback: { text: 'Bench' },
});
process.env.OPENAI_BASE_URL = provider.baseURL;
process.env.OPENAI_API_KEY = KEY;
const { page, close } = await openBrowserBench('model-screen', {
  path: join(import.meta.dirname, 'model-screen-page.js'),
});
try {
  await page
    .getByRole('region', { name: /^Welcome to / })
    .getByText(/model bench-model · /)
    .waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Start a new conversation' }).click();

  provider.reply(REPLY);
  await throughScreen(page); // starts and warms the agent (and its first reply's title)
  await turnEnded(page);
  const direct: Timed[] = [];
  const screen: (Timed & { split: Split })[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    provider.reply(REPLY);
    direct.push(await providerStream(provider.baseURL, KEY));
    provider.reply(REPLY);
    screen.push(await throughScreen(page));
    await turnEnded(page);
  }
  const f = pathRows(
    {
      id: 'model.screen',
      firstText:
        'model agent: time from Enter to the first text on the screen, ÷ the provider’s own first text',
      rate: 'model agent: text rate on the screen, ÷ the provider’s own',
    },
    screen,
    direct,
  );
  console.log('model agent to the screen, each first text split (ms after Enter):');
  for (const turn of screen) console.log(`  ${turn.first.toFixed(0)} ms: ${showSplit(turn.split)}`);
  console.log(
    `model agent to the screen: first text ${f.first.toFixed(1)} ms after Enter vs ${f.firstDirect.toFixed(1)} ms from the provider; ` +
      `${f.rate.toFixed(0)} vs ${f.rateDirect.toFixed(0)} characters/s (${ROUNDS} turns each, medians)`,
  );
} finally {
  await close();
  await provider.close();
}
process.exit(0);
