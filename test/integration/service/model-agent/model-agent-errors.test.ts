import { createServer } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  startAnthropicServer,
  startOpenAiServer,
  type ScriptedProvider,
} from '../../../support/scripted-providers';
import { handed, startModelAgent } from './model-agent-harness';

/**
 * A provider's failure ends the turn with words that name the provider and the cause, as the
 * JSON-RPC error's `data.details` the service shows (turn-runner.ts, agent-answers.ts): a refused key,
 * a rate limit with its retry-after, a model that does not exist, a server that cannot be reached,
 * a server that never answers (the request's timeout), and no provider at all.
 */

const KEYS = { openai: 'test-key-openai', anthropic: 'test-key-anthropic' } as const;

async function scripted(kind: 'openai' | 'anthropic'): Promise<ScriptedProvider> {
  const options = { apiKey: KEYS[kind], models: ['test-model'] };
  const server = kind === 'openai' ? await startOpenAiServer(options) : await startAnthropicServer(options);
  onTestFinished(() => server.close());
  return server;
}

/** A port nothing listens on: taken, then let go. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const failsWith = (words: RegExp) =>
  expect.objectContaining({ data: { details: expect.stringMatching(words) } });

describe.each(['openai', 'anthropic'] as const)('the model agent’s errors on %s', (kind) => {
  const name = kind === 'openai' ? 'OpenAI' : 'Anthropic';

  it('says the key was refused, the rate limit with its retry-after, and the unknown model', async () => {
    const server = await scripted(kind);
    const agent = await startModelAgent();
    const wrongKey = { providers: [handed(server, kind, 'test-key-wrong')] };
    const { sessionId } = await agent.newSession(wrongKey);
    await expect(agent.prompt(sessionId, 'hi', wrongKey)).rejects.toEqual(
      failsWith(new RegExp(`^${name} refused the key \\(401\\)`)),
    );

    const handoff = { providers: [handed(server, kind, KEYS[kind])] };
    server.reply({ fail: 'rate-limited', retryAfter: 7 });
    await expect(agent.prompt(sessionId, 'hi', handoff)).rejects.toEqual(
      failsWith(new RegExp(`^${name} is limiting requests \\(429\\); try again in 7 s`)),
    );

    const missing = {
      providers: [handed(server, kind, KEYS[kind], [{ id: 'no-such-model', label: 'Gone' }])],
    };
    const other = await agent.newSession(missing);
    await expect(agent.prompt(other.sessionId, 'hi', missing)).rejects.toEqual(
      failsWith(new RegExp(`^${name} has no model "no-such-model" \\(404\\)`)),
    );
    // The key went to its own host only, in its own header.
    for (const request of server.requests) {
      const sent = kind === 'openai' ? request.headers.authorization : request.headers['x-api-key'];
      expect(sent).toMatch(/test-key-(wrong|openai|anthropic)$/);
    }
  });

  it('says a server cannot be reached, and gives up on one that never answers', async () => {
    const port = await deadPort();
    const agent = await startModelAgent({ env: { AGENTDESK_MODEL_TIMEOUT_MS: '1500' } });
    const dead = {
      providers: [
        { ...handed({ baseURL: `http://127.0.0.1:${port}/v1` } as ScriptedProvider, kind, KEYS[kind]) },
      ],
    };
    const { sessionId } = await agent.newSession(dead);
    await expect(agent.prompt(sessionId, 'hi', dead)).rejects.toEqual(
      failsWith(new RegExp(`^${name} cannot be reached at 127.0.0.1:${port} \\(connection refused\\)`)),
    );

    const server = await scripted(kind);
    server.reply({ fail: 'hang' });
    const handoff = { providers: [handed(server, kind, KEYS[kind])] };
    const started = Date.now();
    await expect(agent.prompt(sessionId, 'hi', handoff)).rejects.toEqual(
      failsWith(new RegExp(`^${name} did not answer within 1.5 s`)),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await server.modelRequests()[0]!.closed).toBe(true);
  });
});

describe('the model agent without providers', () => {
  it('says in words how to add one, and that a removed provider’s model is gone', async () => {
    const agent = await startModelAgent();
    const { sessionId, configOptions } = await agent.newSession({ providers: [] });
    expect(configOptions).toEqual([]);
    await expect(agent.prompt(sessionId, 'hi', { providers: [] })).rejects.toEqual(
      failsWith(/^No model provider is set up: add one in Settings → Models\.$/),
    );

    const server = await scripted('openai');
    const before = { providers: [handed(server, 'openai', KEYS.openai)] };
    const chosen = await agent.newSession(before);
    const after = {
      providers: [
        { ...handed(server, 'anthropic', KEYS.anthropic, [{ id: 'other-model', label: 'Other' }]) },
      ],
    };
    await expect(agent.prompt(chosen.sessionId, 'hi', after)).rejects.toEqual(
      failsWith(/^The model test-model is no longer offered/),
    );
    expect(server.modelRequests()).toHaveLength(0);
  });
});
