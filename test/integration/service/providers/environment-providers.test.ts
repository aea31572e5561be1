import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ModelProviders } from '../../../../src/shared/api/routes/model-providers';
import { createHarness, type Harness } from '../turns/harness';
import { startListServer, withoutProviderEnvironment, type ListServer } from './models-list-server';

// The real service started as a person would start it with a provider in its environment (OPENAI_BASE_URL and
// OPENAI_API_KEY pointing at a real HTTP server listing models): the provider is picked up at start, and the first
// agent thinks with it. On a server (--public-url) the environment lends nothing.

const KEY = 'sk-env.test.5c1e0b8d7f22';

let server: ListServer;
let restoreEnv: () => void;
const harnesses: Harness[] = [];
const logLines: string[] = [];

async function start(config: Record<string, unknown> = {}): Promise<Harness> {
  const h = await createHarness({ config, log: (line) => logLines.push(line) });
  harnesses.push(h);
  return h;
}

beforeAll(async () => {
  restoreEnv = withoutProviderEnvironment();
  server = await startListServer({ protocol: 'openai', apiKey: KEY, models: ['env-model-a', 'env-model-b'] });
  process.env.OPENAI_BASE_URL = server.baseURL;
  process.env.OPENAI_API_KEY = KEY;
});
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});
afterAll(async () => {
  await server?.close();
  restoreEnv?.();
});

describe('providers of the service’s environment', () => {
  it('are picked up at start on this computer, masked, and the first agent uses the first model', async () => {
    const h = await start();
    const listed = ModelProviders.parse((await h.api('GET', '/api/v2/me/model-providers')).body).proveedores;
    const host = new URL(server.baseURL).host;
    expect(listed).toEqual([
      {
        id: 'env-openai-compatible',
        tipo: 'openai-compatible',
        nombre: `OpenAI-compatible server (${host})`,
        origen: 'entorno',
        urlBase: server.baseURL,
        clave: 'sk-…7f22',
        modelos: [
          { id: 'env-model-a', label: 'env-model-a' },
          { id: 'env-model-b', label: 'env-model-b' },
        ],
        error: null,
      },
    ]);
    const agent = await h.api<{ engine: string; model: string; models: { id: string }[] }>(
      'GET',
      `/api/v2/agents/${h.agentId}`,
    );
    expect(agent.body.engine).toBe('engine-e');
    expect(agent.body.model).toBe('env-model-a');
    expect(agent.body.models.map((m) => m.id)).toEqual(['env-model-a', 'env-model-b']);
    // The environment's provider is not the person's to remove.
    const removed = await h.api('DELETE', '/api/v2/me/model-providers/env-openai-compatible');
    expect(removed).toMatchObject({ status: 409, body: { error: 'proveedor_del_entorno' } });
    expect(JSON.stringify(listed)).not.toContain(KEY);
    expect(logLines.filter((l) => l.includes(KEY))).toEqual([]);
  });

  it('are not lent on a server (--public-url): a person there needs their own key', async () => {
    const h = await start({ publicUrl: 'https://agents.example.test' });
    const listed = ModelProviders.parse((await h.api('GET', '/api/v2/me/model-providers')).body).proveedores;
    expect(listed).toEqual([]);
    const agent = await h.api<{ engine: string }>('GET', `/api/v2/agents/${h.agentId}`);
    expect(agent.body.engine).toBe('engine-b');
    await h.api('PATCH', `/api/v2/agents/${h.agentId}`, { engine: 'engine-e' });
    const sent = await h.send(await h.conversation(), { content: 'hello' });
    expect(sent.status).toBe(402);
    expect(sent.body).toEqual({
      error: 'own_key_required',
      message:
        'This agent thinks with your own model, and this server offers none: add your own key in Settings → Models.',
    });
  });
});
