import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { jsonSchema, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  startAnthropicServer,
  startOpenAiServer,
  type ScriptedProvider,
} from '../../../support/scripted-providers';

/**
 * The scripted provider servers speak the real wire protocols: the AI SDK's own providers (no mocks)
 * read their streams as text, reasoning, tool calls and usage, and meet their errors.
 */

type Kind = 'openai' | 'anthropic';
const KEYS = { openai: 'test-key-openai', anthropic: 'test-key-anthropic' };

async function start(kind: Kind, models = ['test-model']): Promise<ScriptedProvider> {
  const options = { apiKey: KEYS[kind], models };
  const server = kind === 'openai' ? await startOpenAiServer(options) : await startAnthropicServer(options);
  onTestFinished(() => server.close());
  return server;
}

function modelOf(kind: Kind, server: ScriptedProvider, key = KEYS[kind], id = 'test-model'): LanguageModel {
  return kind === 'openai'
    ? createOpenAICompatible({
        name: 'scripted',
        baseURL: server.baseURL,
        apiKey: key,
        includeUsage: true,
      }).chatModel(id)
    : createAnthropic({ baseURL: server.baseURL, apiKey: key })(id);
}

/** The errors are asserted from the stream's parts; the SDK's default would also print them. */
const quiet = () => undefined;

async function collect(result: ReturnType<typeof streamText>) {
  const parts: { type: string; text?: string }[] = [];
  for await (const part of result.fullStream) parts.push(part as { type: string; text?: string });
  return parts;
}

describe.each<Kind>(['openai', 'anthropic'])('the scripted %s server', (kind) => {
  it('streams text, thinking and usage, and checks the key header', async () => {
    const server = await start(kind);
    server.reply({
      thinking: 'Let me think.',
      text: 'Hello there, person.',
      usage: { input: 12, output: 7 },
    });
    const result = streamText({ model: modelOf(kind, server), prompt: 'hi' });
    const parts = await collect(result);
    expect(
      parts
        .filter((p) => p.type === 'text-delta')
        .map((p) => p.text)
        .join(''),
    ).toBe('Hello there, person.');
    expect(parts.filter((p) => p.type === 'text-delta').length).toBeGreaterThan(1);
    expect(
      parts
        .filter((p) => p.type === 'reasoning-delta')
        .map((p) => p.text)
        .join(''),
    ).toBe('Let me think.');
    const usage = await result.totalUsage;
    expect([usage.inputTokens, usage.outputTokens]).toEqual([12, 7]);
    const [sent] = server.modelRequests();
    if (kind === 'openai') expect(sent!.headers.authorization).toBe('Bearer test-key-openai');
    else expect(sent!.headers['x-api-key']).toBe('test-key-anthropic');
  });

  it('sends a tool call and receives its result in the next request', async () => {
    const server = await start(kind);
    server.reply({ toolCalls: [{ name: 'lookup', input: { word: 'otter' } }] }, { text: 'Found it.' });
    const lookup = tool({
      description: 'Looks a word up',
      inputSchema: jsonSchema<{ word: string }>({
        type: 'object',
        properties: { word: { type: 'string' } },
        required: ['word'],
      }),
      execute: async ({ word }) => `${word}: a water mammal`,
    });
    const result = streamText({
      model: modelOf(kind, server),
      prompt: 'look up otter',
      tools: { lookup },
      stopWhen: stepCountIs(3),
    });
    expect(await result.text).toBe('Found it.');
    const second = JSON.stringify(server.modelRequests()[1]!.body);
    expect(second).toContain('otter: a water mammal');
  });

  it('answers a wrong key 401 with the provider’s own error body', async () => {
    const server = await start(kind);
    server.reply({ text: 'never' });
    const result = streamText({
      model: modelOf(kind, server, 'test-key-wrong'),
      prompt: 'hi',
      maxRetries: 0,
      onError: quiet,
    });
    const errors: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === 'error') errors.push(part.error);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ statusCode: 401 });
    expect(server.pending()).toBe(1);
  });

  it('answers a rate limit 429 with retry-after, and an unknown model 404', async () => {
    const server = await start(kind);
    server.reply({ fail: 'rate-limited', retryAfter: 7 });
    const limited = streamText({ model: modelOf(kind, server), prompt: 'hi', maxRetries: 0, onError: quiet });
    let error: { statusCode?: number; responseHeaders?: Record<string, string> } | undefined;
    for await (const part of limited.fullStream)
      if (part.type === 'error') error = part.error as typeof error;
    expect(error?.statusCode).toBe(429);
    expect(error?.responseHeaders?.['retry-after']).toBe('7');

    const missing = streamText({
      model: modelOf(kind, server, KEYS[kind], 'no-such-model'),
      prompt: 'hi',
      maxRetries: 0,
      onError: quiet,
    });
    let notFound: { statusCode?: number; responseBody?: string } | undefined;
    for await (const part of missing.fullStream)
      if (part.type === 'error') notFound = part.error as typeof notFound;
    expect(notFound?.statusCode).toBe(404);
    expect(notFound?.responseBody).toContain('no-such-model');
  });

  it('sees the connection close when the client aborts a stalled stream', async () => {
    const server = await start(kind);
    server.reply({ text: 'one two three four five', stallAfterPieces: 2 });
    const abort = new AbortController();
    const result = streamText({ model: modelOf(kind, server), prompt: 'hi', abortSignal: abort.signal });
    let seen = '';
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') seen += part.text;
      if (seen === 'one two ') abort.abort();
    }
    expect(seen).toBe('one two ');
    expect(await server.modelRequests()[0]!.closed).toBe(true);
  });

  it('lists its models', async () => {
    const server = await start(kind, ['alpha', 'beta']);
    const headers: Record<string, string> =
      kind === 'openai' ? { authorization: 'Bearer test-key-openai' } : { 'x-api-key': 'test-key-anthropic' };
    const listed = (await (await fetch(`${server.baseURL}/models`, { headers })).json()) as {
      data: { id: string }[];
    };
    expect(listed.data.map((m) => m.id)).toEqual(['alpha', 'beta']);
  });
});
