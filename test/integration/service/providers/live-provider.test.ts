import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../turns/harness';

// A chat with a real provider, through the real service, when the test's environment holds a real key
// (OPENAI_API_KEY, with OPENAI_BASE_URL for another server of its protocol, or ANTHROPIC_API_KEY). Without one
// there is nothing real to talk to, so the test is skipped, and its name says why in the summary.

const live = Boolean(process.env.OPENAI_API_KEY || process.env.ANTHROPIC_API_KEY);

describe('a real provider from the environment', () => {
  let h: Harness;
  beforeAll(async () => {
    if (live) h = await createHarness();
  });
  afterAll(() => h?.close());

  it.skipIf(!live)(
    'answers a message on the model agent (skipped: no OPENAI_API_KEY or ANTHROPIC_API_KEY in this environment)',
    async () => {
      const agent = await h.api<{ engine: string; models: { id: string }[] }>(
        'GET',
        `/api/v2/agents/${h.agentId}`,
      );
      expect(agent.body.engine).toBe('engine-e');
      expect(agent.body.models.length).toBeGreaterThan(0);
      const id = await h.conversation();
      const stream = await h.events(id);
      const sent = await h.send(id, { content: 'Reply with the single word: ready' });
      expect(sent.status).toBe(202);
      const events = await stream.untilDone(String(sent.body['turnId']));
      const text = events
        .filter((e) => e.event === 'chunk')
        .map((e) => String(e.data.text))
        .join('');
      expect(events.at(-1)).toMatchObject({ event: 'done', data: { estado: 'done' } });
      expect(text.toLowerCase()).toContain('ready');
    },
    120_000,
  );
});
