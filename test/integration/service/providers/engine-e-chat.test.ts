import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiServer, type ScriptedProvider } from '../../../support/scripted-providers';
import type { ReceivedEvent } from '../../../support/sse';
import { createHarness, type Harness } from '../turns/harness';
import { withoutProviderEnvironment } from './models-list-server';

// The whole path of a chat on the model agent (engine-e): the real service started with OPENAI_BASE_URL and
// OPENAI_API_KEY pointing at a scripted OpenAI chat-completions server (real HTTP, the AI SDK on the agent's
// side), POST messages and the event stream, a permission answered through POST permission, a file on disk.

const KEY = 'sk-scripted.7d0e4c1b9a55';

let h: Harness;
let provider: ScriptedProvider;
let restoreEnv: () => void;
const logLines: string[] = [];
const seen: string[] = [];

const chunks = (events: ReceivedEvent[]) =>
  events.filter((e) => e.event === 'chunk').map((e) => String(e.data.text));

async function turn(content: string, body: Record<string, unknown> = {}) {
  const id = await h.conversation();
  const stream = await h.events(id);
  const titles = titleRequests();
  const sent = await h.send(id, { content, ...body });
  expect(sent.status).toBe(202);
  return { id, stream, turnId: String(sent.body['turnId']), titles };
}

/** The model requests that do not stream: the title the agent asks for after a conversation's first reply. */
const titleRequests = () =>
  provider.modelRequests().filter((r) => (r.body as { stream?: boolean }).stream !== true).length;

/** Waits for that title request, so it cannot take a reply scripted for the next test (it gets the fallback). */
async function titleAsked(before: number): Promise<void> {
  await expect.poll(titleRequests, { timeout: 15_000 }).toBeGreaterThan(before);
}

beforeAll(async () => {
  restoreEnv = withoutProviderEnvironment();
  provider = await startOpenAiServer({ apiKey: KEY, models: ['scripted-a', 'scripted-b'] });
  process.env.OPENAI_BASE_URL = provider.baseURL;
  process.env.OPENAI_API_KEY = KEY;
  h = await createHarness({ log: (line) => logLines.push(line) });
});
afterAll(async () => {
  await h?.close();
  await provider?.close();
  restoreEnv?.();
});

describe('a chat on the model agent, through the service', () => {
  it('switches an agent to it with a model through the spec’s PATCH', async () => {
    // The first agent is on the model agent already (a provider was found at start): away to the lite engine,
    // which has no machine to stop or start, and back.
    const first = await h.api<{ engine: string }>('GET', `/api/v2/agents/${h.agentId}`);
    expect(first.body.engine).toBe('engine-e');
    expect((await h.api('PATCH', `/api/v2/agents/${h.agentId}`, { engine: 'house-lite' })).status).toBe(200);
    const switched = await h.api<{ engine: string; model: string; models: { id: string }[] }>(
      'PATCH',
      `/api/v2/agents/${h.agentId}`,
      { engine: 'engine-e', model: 'scripted-b' },
    );
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ engine: 'engine-e', model: 'scripted-b' });
    expect(switched.body.models.map((m) => m.id)).toEqual(['scripted-a', 'scripted-b']);
  });

  it('changes the model without restarting the agent: the model goes with each turn', async () => {
    const changed = await h.api<{ model: string; nota: string }>('PATCH', `/api/v2/agents/${h.agentId}`, {
      model: 'scripted-a',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.model).toBe('scripted-a');
    expect(changed.body.nota).toBe('The new model answers from the next reply.');
    expect((await h.api('PATCH', `/api/v2/agents/${h.agentId}`, { model: 'scripted-b' })).status).toBe(200);
  });

  it('streams the model’s reply in chunks, with its usage, on the chosen model', async () => {
    // Words further apart than the model agent's frame (UpdateSender), so each comes as a chunk of its own.
    provider.reply({
      text: 'Hello from the scripted model, word by word.',
      usage: { input: 42, output: 9 },
      paceMs: 30,
    });
    const { stream, turnId, titles } = await turn('hello model');
    const events = await stream.untilDone(turnId);
    seen.push(JSON.stringify(events));
    expect(chunks(events).length).toBeGreaterThan(3);
    expect(chunks(events).join('')).toBe('Hello from the scripted model, word by word.');
    const usage = events.find((e) => e.event === 'usage')?.data;
    expect(usage).toMatchObject({ input: 42, output: 9 });
    // The scripted model has no known price: tokens only, never a made-up cost of 0.
    expect(usage).not.toHaveProperty('cost');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { turnId, estado: 'done' } });
    const request = provider.modelRequests().find((r) => (r.body as { stream?: boolean }).stream === true)!;
    expect(request.body).toMatchObject({ model: 'scripted-b', stream: true });
    await titleAsked(titles);
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('asks before writing a workspace file, and writes it once allowed', async () => {
    provider.reply(
      {
        toolCalls: [
          { id: 'call_w', name: 'write_file', input: { path: 'notes/plan.md', content: '- ship it\n' } },
        ],
      },
      { text: 'Written.' },
    );
    const { id, stream, turnId, titles } = await turn('write my plan', { permisos: 'preguntar' });
    const asked = await stream.nextNamed('permission');
    expect(asked.data).toMatchObject({ title: expect.stringContaining('notes/plan.md') });
    const file = join(h.service.dataDir, 'agents', h.agentId, 'work', 'notes', 'plan.md');
    expect(existsSync(file)).toBe(false);
    const options = asked.data.options as { optionId: string; kind: string }[];
    const allow = options.find((o) => o.kind === 'allow_once')!.optionId;
    const answered = await h.api('POST', h.path(id, '/permission'), { id: asked.data.id, optionId: allow });
    expect(answered).toMatchObject({ status: 200, body: { resuelto: true } });
    const events = await stream.untilDone(turnId);
    seen.push(JSON.stringify(events));
    const tool = events.filter((e) => e.event === 'tool').at(-1);
    expect(tool?.data).toMatchObject({ kind: 'edit', status: 'completed' });
    expect(chunks(events).join('')).toContain('Written.');
    expect(readFileSync(file, 'utf8')).toBe('- ship it\n');
    await titleAsked(titles);
  });

  it('ends a turn whose key the provider refuses with words naming it', async () => {
    provider.reply({ fail: 'refused-key' });
    const { stream, turnId } = await turn('are you there');
    const events = await stream.untilDone(turnId);
    seen.push(JSON.stringify(events));
    const error = events.find((e) => e.event === 'error');
    expect(String(error?.data.message)).toMatch(/refused/i);
    expect(String(error?.data.message)).toContain('OpenAI-compatible server');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { estado: 'error' } });
  });

  it('stops a reply mid-stream, closing the provider’s request', async () => {
    provider.reply({ text: 'one two three four five six seven eight nine ten eleven twelve', paceMs: 300 });
    const { id, stream, turnId } = await turn('count slowly');
    await stream.nextNamed('chunk');
    const request = provider.modelRequests().at(-1)!;
    const cancelled = await h.api('POST', h.path(id, '/cancel'));
    expect(cancelled.body).toMatchObject({ detenido: true });
    const events = await stream.untilDone(turnId);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { estado: 'stopped' } });
    expect(await request.closed).toBe(true);
    expect(chunks(events).join('')).not.toContain('twelve');
  });

  it('tells of a provider that cannot be reached, in words', async () => {
    const second = await startOpenAiServer({ apiKey: 'sk-second-0000000000aa', models: ['gone-model'] });
    const added = await h.api('POST', '/api/v2/me/model-providers', {
      tipo: 'openai-compatible',
      clave: 'sk-second-0000000000aa',
      urlBase: second.baseURL,
      nombre: 'Second server',
    });
    expect(added.status).toBe(201);
    await second.close();
    expect((await h.api('PATCH', `/api/v2/agents/${h.agentId}`, { model: 'gone-model' })).status).toBe(200);
    const { stream, turnId } = await turn('anyone?');
    const events = await stream.untilDone(turnId);
    const error = events.find((e) => e.event === 'error');
    expect(String(error?.data.message)).toContain('Second server');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { estado: 'error' } });
  });

  it('never shows the key in the events or the log', () => {
    expect(seen.join('\n')).not.toContain(KEY);
    expect(logLines.filter((line) => line.includes(KEY))).toEqual([]);
  });
});
