import { afterEach, expect, it } from 'vitest';
import { startOpenAiServer, type ScriptedProvider } from '../../../support/scripted-providers';
import { createHarness, type Harness } from '../turns/harness';
import { deadAddress, withoutProviderEnvironment } from './models-list-server';

// A provider from the environment that does not work, as a person's shell may hold one: a refused key, or an
// address where nothing answers. The real service starts with it; the settings list says why, and a chat on
// the model agent (engine-e, chosen through the spec's PATCH) ends at once with those words, not with "no
// provider is set up".

let h: Harness | undefined;
let provider: ScriptedProvider | undefined;
let restoreEnv: (() => void) | undefined;

afterEach(async () => {
  await h?.close();
  await provider?.close();
  restoreEnv?.();
  h = provider = restoreEnv = undefined;
});

async function chatError(): Promise<string> {
  expect((await h!.api('PATCH', `/api/v2/agents/${h!.agentId}`, { engine: 'engine-e' })).status).toBe(200);
  const id = await h!.conversation();
  const stream = await h!.events(id);
  const sent = await h!.send(id, { content: 'hello?' });
  expect(sent.status).toBe(202);
  const events = await stream.untilDone(String(sent.body['turnId']));
  expect(events.at(-1)).toMatchObject({ event: 'done', data: { estado: 'error' } });
  return String(events.find((e) => e.event === 'error')?.data.message);
}

it('a refused key: the provider is listed with the refusal, and a chat says it', async () => {
  restoreEnv = withoutProviderEnvironment();
  provider = await startOpenAiServer({ apiKey: 'sk-good.5a4c3b2a1f0e', models: ['scripted-a'] });
  process.env.OPENAI_BASE_URL = provider.baseURL;
  process.env.OPENAI_API_KEY = 'sk-wrong.0b1c2d3e4f5a';
  h = await createHarness();
  const listed = await h.api<{ proveedores: { origen: string; modelos: unknown[]; error: string | null }[] }>(
    'GET',
    '/api/v2/me/model-providers',
  );
  expect(listed.body.proveedores).toEqual([
    expect.objectContaining({
      origen: 'entorno',
      modelos: [],
      error: expect.stringMatching(/refused this key \(401\)/),
    }),
  ]);
  const words = await chatError();
  expect(words).toMatch(
    /OpenAI-compatible server .* refused this key \(401\)\. Check it in Settings → Models\./,
  );
  expect(words).not.toContain('0b1c2d3e4f5a');
});

it('a server that cannot be reached: a chat names the address', async () => {
  restoreEnv = withoutProviderEnvironment();
  const dead = await deadAddress();
  process.env.OPENAI_BASE_URL = dead;
  process.env.OPENAI_API_KEY = 'sk-any.1a2b3c4d5e6f';
  h = await createHarness();
  const words = await chatError();
  expect(words).toContain(new URL(dead).host);
  expect(words).toMatch(/could not be reached/);
});
