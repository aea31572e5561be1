import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelProvider, ModelProviders } from '../../../../src/shared/api/routes/model-providers';
import { ensurePerson, signIn } from '../../../support/local-service';
import { createHarness, type Harness } from '../turns/harness';
import {
  deadAddress,
  startListServer,
  withoutProviderEnvironment,
  type ListServer,
} from './models-list-server';

// The real service on 127.0.0.1 over real HTTP, and providers' model lists served over real HTTP: adding a
// provider tries its key for real, and the key is looked for afterwards in every answer, the log and the data
// folder. The service's own environment lends no provider here (the variables are taken out for the test).

const GOOD_KEY = 'sk-test.good.4b7f0c2e9a1d';
const ANTHROPIC_KEY = 'sk-ant-test.9e3c55d01f7a';

let h: Harness;
let openai: ListServer;
let anthropic: ListServer;
const logLines: string[] = [];
let restoreEnv: () => void;
const answers: string[] = [];

async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  token?: string,
) {
  const answer = await h.api<T>(method, path, body, token);
  answers.push(JSON.stringify(answer.body));
  return answer;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

beforeAll(async () => {
  restoreEnv = withoutProviderEnvironment();
  openai = await startListServer({
    protocol: 'openai',
    apiKey: GOOD_KEY,
    models: ['gpt-test-large', 'gpt-test-small'],
  });
  anthropic = await startListServer({
    protocol: 'anthropic',
    apiKey: ANTHROPIC_KEY,
    models: ['claude-test'],
  });
  h = await createHarness({ log: (line) => logLines.push(line) });
});
afterAll(async () => {
  await h?.close();
  await openai?.close();
  await anthropic?.close();
  restoreEnv?.();
});

describe('model providers a person adds (our extension /api/v2/me/model-providers)', () => {
  it('lists none at first on a service whose environment lends none', async () => {
    const listed = await call('GET', '/api/v2/me/model-providers');
    expect(listed.status).toBe(200);
    expect(ModelProviders.parse(listed.body).proveedores).toEqual([]);
  });

  it('refuses a key the provider refuses, in words naming it, and keeps nothing', async () => {
    const refused = await call('POST', '/api/v2/me/model-providers', {
      tipo: 'openai-compatible',
      clave: 'sk-test.wrong.000000000',
      urlBase: openai.baseURL,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'clave_rechazada',
      detalle: expect.stringMatching(/refused this key \(401\)/),
    });
    const anthropicRefused = await call('POST', '/api/v2/me/model-providers', {
      tipo: 'anthropic',
      clave: 'sk-ant-wrong.1111111111',
      urlBase: anthropic.baseURL,
    });
    expect(anthropicRefused.body).toEqual({
      error: 'clave_rechazada',
      detalle: 'Anthropic refused this key (401).',
    });
    const listed = await call('GET', '/api/v2/me/model-providers');
    expect(ModelProviders.parse(listed.body).proveedores).toEqual([]);
  });

  it('says a server that does not answer cannot be reached, and keeps nothing', async () => {
    const dead = await call('POST', '/api/v2/me/model-providers', {
      tipo: 'openai-compatible',
      clave: GOOD_KEY,
      urlBase: await deadAddress(),
    });
    expect(dead.status).toBe(400);
    expect(dead.body).toEqual({
      error: 'proveedor_inalcanzable',
      detalle: expect.stringMatching(/could not be reached at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/),
    });
    expect(ModelProviders.parse((await call('GET', '/api/v2/me/model-providers')).body).proveedores).toEqual(
      [],
    );
  });

  it('asks for what a kind needs: a key, or a server’s address', async () => {
    const noKey = await call('POST', '/api/v2/me/model-providers', { tipo: 'anthropic' });
    expect(noKey.body).toEqual({ error: 'body_invalido', detalle: 'Anthropic needs a key (clave).' });
    const noAddress = await call('POST', '/api/v2/me/model-providers', {
      tipo: 'openai-compatible',
      clave: GOOD_KEY,
    });
    expect(noAddress.status).toBe(400);
    expect(noAddress.body).toMatchObject({
      error: 'body_invalido',
      detalle: expect.stringContaining('urlBase'),
    });
  });

  it('keeps a key the provider accepts, shows it masked with the models the provider lists', async () => {
    const added = await call('POST', '/api/v2/me/model-providers', {
      tipo: 'openai-compatible',
      clave: GOOD_KEY,
      urlBase: openai.baseURL,
      nombre: 'My test server',
    });
    expect(added.status).toBe(201);
    const provider = ModelProvider.parse(added.body);
    expect(provider).toMatchObject({
      tipo: 'openai-compatible',
      nombre: 'My test server',
      origen: 'ajustes',
      urlBase: openai.baseURL,
      clave: 'sk-…9a1d',
      modelos: [
        { id: 'gpt-test-large', label: 'gpt-test-large' },
        { id: 'gpt-test-small', label: 'gpt-test-small' },
      ],
      error: null,
    });
    // The key went to its own server only, in the protocol's header.
    expect(openai.requests.at(-1)).toMatchObject({
      path: '/v1/models',
      headers: { authorization: `Bearer ${GOOD_KEY}` },
    });
    expect(anthropic.requests.some((r) => JSON.stringify(r.headers).includes(GOOD_KEY))).toBe(false);

    const claude = await call('POST', '/api/v2/me/model-providers', {
      tipo: 'anthropic',
      clave: ANTHROPIC_KEY,
      urlBase: anthropic.baseURL,
    });
    expect(claude.status).toBe(201);
    expect(claude.body).toMatchObject({
      nombre: 'Anthropic',
      modelos: [{ id: 'claude-test', label: 'Model claude-test' }],
    });
    expect(anthropic.requests.at(-1)?.headers).toMatchObject({
      'x-api-key': ANTHROPIC_KEY,
      'anthropic-version': '2023-06-01',
    });

    const listed = ModelProviders.parse((await call('GET', '/api/v2/me/model-providers')).body).proveedores;
    expect(listed.map((p) => [p.nombre, p.clave])).toEqual([
      ['My test server', 'sk-…9a1d'],
      ['Anthropic', 'sk-…1f7a'],
    ]);
  });

  it('offers the providers’ models on the model agent, and an agent switches to it with one of them', async () => {
    const agent = await call<{
      about: { engines: { id: string; name: string; offered?: boolean; onYourModels?: boolean }[] };
    }>('GET', `/api/v2/agents/${h.agentId}`);
    const engines = agent.body.about.engines;
    expect(engines.find((e) => e.id === 'engine-e')).toMatchObject({
      name: 'AgentDesk agent, on your models',
      onYourModels: true,
    });
    expect(engines.find((e) => e.id === 'engine-b')).toMatchObject({
      name: 'Demo agent (offline, answers by rule)',
    });
    expect(engines.filter((e) => e.offered === false).map((e) => e.id)).toEqual(['engine-c', 'engine-d']);

    // The switch itself (its answer, the machine started) is in engine-e-chat.test.ts; here, what it offers.
    await call('PATCH', `/api/v2/agents/${h.agentId}`, { engine: 'engine-e', model: 'claude-test' });
    const switched = await call<{ engine: string; model: string; models: { id: string; label: string }[] }>(
      'GET',
      `/api/v2/agents/${h.agentId}`,
    );
    expect(switched.body.engine).toBe('engine-e');
    expect(switched.body.model).toBe('claude-test');
    expect(switched.body.models).toEqual([
      { id: 'gpt-test-large', label: 'gpt-test-large · My test server' },
      { id: 'gpt-test-small', label: 'gpt-test-small · My test server' },
      { id: 'claude-test', label: 'Model claude-test · Anthropic' },
    ]);
  });

  it('removes a provider and its key; its models leave the agent at once', async () => {
    const listed = ModelProviders.parse((await call('GET', '/api/v2/me/model-providers')).body).proveedores;
    const claude = listed.find((p) => p.tipo === 'anthropic')!;
    const removed = await call('DELETE', `/api/v2/me/model-providers/${claude.id}`);
    expect(removed).toMatchObject({ status: 200, body: { borrado: true } });
    expect((await call('DELETE', `/api/v2/me/model-providers/${claude.id}`)).status).toBe(404);
    const agent = await call<{ models: { id: string }[] }>('GET', `/api/v2/agents/${h.agentId}`);
    expect(agent.body.models.map((m) => m.id)).toEqual(['gpt-test-large', 'gpt-test-small']);
  });

  it('keeps one person’s providers from another', async () => {
    await ensurePerson(h.service, 'other@example.test');
    const other = (await signIn(h.service, { email: 'other@example.test' })).access_token;
    const listed = await call('GET', '/api/v2/me/model-providers', undefined, other);
    expect(ModelProviders.parse(listed.body).proveedores).toEqual([]);
    const mine = ModelProviders.parse((await call('GET', '/api/v2/me/model-providers')).body).proveedores;
    const theirs = await call('DELETE', `/api/v2/me/model-providers/${mine[0]!.id}`, undefined, other);
    expect(theirs.status).toBe(404);
  });

  it('answers 402 own_key_required to a message for the model agent of a person with no provider', async () => {
    await ensurePerson(h.service, 'nokey@example.test');
    const token = (await signIn(h.service, { email: 'nokey@example.test' })).access_token;
    const agents = await call<{ agentes: { id: string }[] }>('GET', '/api/v2/me/agents', undefined, token);
    const agentId = agents.body.agentes[0]!.id;
    // With no provider found, the first agent is the demo agent.
    expect((await call('GET', `/api/v2/agents/${agentId}`, undefined, token)).body).toMatchObject({
      engine: 'engine-b',
    });
    await call('PATCH', `/api/v2/agents/${agentId}`, { engine: 'engine-e' }, token);
    const created = await call<{ id: string }>(
      'POST',
      `/api/v2/me/agents/${agentId}/conversations`,
      undefined,
      token,
    );
    const sent = await call(
      'POST',
      `/api/v2/me/agents/${agentId}/conversations/${created.body.id}/messages`,
      { content: 'hello' },
      token,
    );
    expect(sent.status).toBe(402);
    expect(sent.body).toEqual({
      error: 'own_key_required',
      message: expect.stringContaining('Settings → Models'),
    });
  });

  it('never shows a key: not in an answer, a log line, or a file of the data folder', async () => {
    for (const key of [GOOD_KEY, ANTHROPIC_KEY]) {
      expect(answers.filter((a) => a.includes(key))).toEqual([]);
      expect(logLines.filter((l) => l.includes(key))).toEqual([]);
      for (const file of await filesUnder(h.service.dataDir)) {
        const bytes = await readFile(file);
        expect(bytes.includes(key), file).toBe(false);
      }
    }
    // The data folder was looked at: it holds the store and the sealing key.
    expect((await filesUnder(h.service.dataDir)).some((f) => f.endsWith('model-provider-keys.key'))).toBe(
      true,
    );
  });
});
