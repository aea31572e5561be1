import { describe, expect, it, onTestFinished } from 'vitest';
import {
  startAnthropicServer,
  startOpenAiServer,
  type ScriptedProvider,
} from '../../../support/scripted-providers';
import { handed, startModelAgent } from './model-agent-harness';

/**
 * The model agent over ACP (its own process, as the service runs it) against the scripted providers,
 * through the real AI SDK: the model selector from the handed providers, streamed text and thinking,
 * usage with and without a price.
 */

const KEYS = { openai: 'test-key-openai', anthropic: 'test-key-anthropic' } as const;

async function scripted(kind: 'openai' | 'anthropic', models = ['test-model']): Promise<ScriptedProvider> {
  const options = { apiKey: KEYS[kind], models, fallback: { text: 'Scripted title' } };
  const server = kind === 'openai' ? await startOpenAiServer(options) : await startAnthropicServer(options);
  onTestFinished(() => server.close());
  return server;
}

describe('the model agent', () => {
  it('offers the handed providers’ models, grouped by provider, starting on the default', async () => {
    const openai = await scripted('openai', ['gpt-a', 'gpt-b']);
    const anthropic = await scripted('anthropic', ['claude-a']);
    const agent = await startModelAgent();
    const handoff = {
      providers: [
        handed(openai, 'openai', KEYS.openai, [
          { id: 'gpt-a', label: 'GPT A' },
          { id: 'gpt-b', label: 'GPT B' },
        ]),
        handed(anthropic, 'anthropic', KEYS.anthropic, [{ id: 'claude-a', label: 'Claude A' }]),
      ],
      defaultModel: 'claude-a',
    };
    const { configOptions } = await agent.newSession(handoff);
    expect(configOptions).toEqual([
      expect.objectContaining({
        id: 'model',
        category: 'model',
        currentValue: 'claude-a',
        options: [
          {
            group: 'openai-1',
            name: 'OpenAI',
            options: [
              { value: 'gpt-a', name: 'GPT A · OpenAI' },
              { value: 'gpt-b', name: 'GPT B · OpenAI' },
            ],
          },
          {
            group: 'anthropic-1',
            name: 'Anthropic',
            options: [{ value: 'claude-a', name: 'Claude A · Anthropic' }],
          },
        ],
      }),
    ]);
  });

  it.each(['openai', 'anthropic'] as const)(
    'streams the %s model’s text and thinking, and reports its usage',
    async (kind) => {
      const server = await scripted(kind);
      const agent = await startModelAgent();
      const handoff = { providers: [handed(server, kind, KEYS[kind])] };
      const { sessionId } = await agent.newSession(handoff);
      // Pieces further apart than the agent's frame (UpdateSender), so each reaches the client as it comes.
      server.reply({
        thinking: 'The person greets me.',
        text: 'Hello! How can I help today?',
        usage: { input: 40, output: 9 },
        paceMs: 40,
      });
      const answer = await agent.prompt(sessionId, 'Hello', handoff);
      expect(answer.stopReason).toBe('end_turn');
      expect(agent.said()).toBe('Hello! How can I help today?');
      expect(agent.updates.filter((u) => u.sessionUpdate === 'agent_message_chunk').length).toBeGreaterThan(
        1,
      );
      expect(agent.thoughts()).toContain('The person greets me.');
      expect(answer.usage).toMatchObject({ inputTokens: 40, outputTokens: 9 });
      const usage = agent.updates.find((u) => u.sessionUpdate === 'usage_update');
      // No price was handed over: tokens only, never a made-up cost.
      expect(usage).toMatchObject({ used: 49 });
      expect(usage).not.toHaveProperty('cost');
      const sent = server.modelRequests()[0]!;
      expect(JSON.stringify(sent.body)).toContain('Hello');
    },
  );
});
