import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startHarness, type Harness } from './harness';
import { readRecord, recordingEngine, spawns } from './recording-engine';

const SKILL = '---\nname: hello\ndescription: Says hello politely.\n---\n\n# Hello\nGreet people.\n';

describe('GET and PATCH /api/v2/agents/{id} over HTTP', { timeout: 120_000 }, () => {
  let h: Harness;
  let scratch: string;
  let recordFile: string;
  const agent = () => `/api/v2/agents/${h.agentId}`;
  const patch = (body: unknown) => h.call(agent(), { method: 'PATCH', json: body });
  const tryTurn = async (text: string, session = 'default') =>
    json(await h.call(`${agent()}/try`, { method: 'POST', json: { text, session } }));

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'agentdesk-record-'));
    recordFile = path.join(scratch, 'engine-c.jsonl');
    h = await startHarness({
      config: {
        engines: {
          'engine-c': recordingEngine(recordFile),
          // A command that cannot start: the machine never takes a change.
          'engine-d': { command: ['/nonexistent/agentdesk-agent'] },
        },
      },
    });
  });
  afterAll(async () => {
    await h.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('GET answers the whole AgentConfig, models from the engine, effective tools per channel', async () => {
    const res = await h.call(agent());
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const config = await json(res);
    expect(config).toMatchObject({
      id: h.agentId,
      name: 'Assistant',
      storage: 'box',
      hasMachine: true,
      engine: 'engine-b',
      model: 'demo-fast',
      models: [
        { id: 'demo-fast', label: 'Demo Fast' },
        { id: 'demo-deep', label: 'Demo Deep' },
      ],
      prompt: '',
      promptMode: 'append',
      channels: { workchat: true, web: true, msgapp1: false, msgapp2: false },
      webSearch: false,
      mcp: [],
      starters: [],
      msgapp2Page: false,
    });
    expect(config.tools.gs).toEqual({ account_files: true, send_file: true, connectors: true });
    expect(config.tools.extensions).toEqual({});
    expect(Object.keys(config.tools.canales).sort()).toEqual(
      ['chat', 'msgapp1', 'msgapp2', 'programado', 'prueba', 'workchat'].sort(),
    );
    // Customers never get the owner's files, by default.
    expect(config.tools.canales.msgapp1.account_files).toBe(false);
    expect(config.tools.canales.chat.account_files).toBe(true);
    expect(config).not.toHaveProperty('files');
    expect(config).not.toHaveProperty('skills');
    expect(config).not.toHaveProperty('extensions');
  });

  it('fields filters the answer and always keeps id', async () => {
    expect(await json(await h.call(`${agent()}?fields=name,model`))).toEqual({
      id: h.agentId,
      name: 'Assistant',
      model: 'demo-fast',
    });
    expect(await json(await h.call(`${agent()}?fields=prompt`))).toEqual({ id: h.agentId, prompt: '' });
    expect(await json(await h.call(`${agent()}?fields=`))).toEqual({ id: h.agentId });
  });

  it('full=1 wakes the machine and adds files, skills and extensions; other values are 400', async () => {
    await h.call(`${agent()}/files/readme.md`, { method: 'PUT', body: '# hi' });
    await h.call(`${agent()}/skills/hello`, { method: 'PUT', json: { markdown: SKILL } });
    await h.service.context.engines.stop(h.agentId);
    expect(h.service.context.engines.isAwake(h.agentId)).toBe(false);
    const config = await json(await h.call(`${agent()}?full=1`));
    expect(h.service.context.engines.isAwake(h.agentId)).toBe(true);
    // The demo agent keeps its own session state in its workspace; leave that aside.
    const own = config.files
      .filter((f: { path: string }) => !f.path.startsWith('.agentdesk-demo/'))
      .map((f: { path: string; size: number }) => ({ path: f.path, size: f.size }));
    expect(own).toEqual([{ path: 'readme.md', size: 4 }]);
    expect(config.skills).toEqual([
      { slug: 'hello', description: 'Says hello politely.', files: ['SKILL.md'] },
    ]);
    expect(config.extensions).toEqual([
      { name: 'developer', enabled: true },
      { name: 'todo', enabled: true },
      { name: 'analyze', enabled: true },
    ]);
    expect((await h.call(`${agent()}?full=2`)).status).toBe(400);
  });

  it('PATCH refuses a body that changes nothing, an unknown model and every limit', async () => {
    const cases: [unknown, string][] = [
      [{}, 'nada_que_cambiar'],
      [{ name: 'Assistant' }, 'nada_que_cambiar'],
      [{ model: 'demo-fast' }, 'nada_que_cambiar'],
      [{ tools: { gs: { send_file: true } } }, 'nada_que_cambiar'],
      [{ model: 'no-such-model' }, 'modelo_invalido'],
      [{ name: 'x'.repeat(65) }, 'body_invalido'],
      [{ prompt: 'p'.repeat(20_001) }, 'body_invalido'],
      [{ starters: ['1', '2', '3', '4', '5', '6'] }, 'body_invalido'],
      [{ starters: ['s'.repeat(81)] }, 'body_invalido'],
      [{ promptMode: 'shout' }, 'body_invalido'],
      [{ engine: 'engine-z' }, 'body_invalido'],
      [{ tools: { gs: { no_such_tool: false } } }, 'body_invalido'],
      [{ tools: { canales: { nowhere: { send_file: false } } } }, 'body_invalido'],
    ];
    for (const [body, error] of cases) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      const answer = await json(res);
      expect(answer.error, JSON.stringify(body).slice(0, 60)).toBe(error);
      expect(typeof answer.detalle).toBe('string');
    }
    // The limits themselves are accepted.
    const ok = await patch({
      name: 'n'.repeat(64),
      prompt: 'p'.repeat(20_000),
      starters: ['a'.repeat(80), 'b', 'c', 'd', 'e'],
    });
    expect(ok.status).toBe(200);
  });

  it('PATCH saves, answers the config with nota and aplicado, and GET reads it back', async () => {
    const res = await patch({
      name: 'Helper',
      prompt: 'You are terse.',
      promptMode: 'replace',
      webSearch: true,
      channels: { msgapp1: true },
      starters: ['Summarise my notes'],
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({
      id: h.agentId,
      name: 'Helper',
      prompt: 'You are terse.',
      promptMode: 'replace',
      webSearch: true,
      channels: { workchat: true, web: true, msgapp1: true, msgapp2: false },
      starters: ['Summarise my notes'],
    });
    expect(body.aplicado.sort()).toEqual([
      'channels',
      'name',
      'prompt',
      'promptMode',
      'starters',
      'webSearch',
    ]);
    expect(body.nota).toContain('prompt');
    expect(await json(await h.call(`${agent()}?fields=name,prompt,promptMode`))).toEqual({
      id: h.agentId,
      name: 'Helper',
      prompt: 'You are terse.',
      promptMode: 'replace',
    });
    // The identity change reaches the person's agent list too.
    const list = await json(await h.call('/api/v2/me/agents'));
    expect(list.agentes[0].nombre).toBe('Helper');
  });

  it('tool vetoes merge with what is saved, show as effective per channel, and true returns to the default', async () => {
    let config = await json(await patch({ tools: { gs: { send_file: false } } }));
    expect(config.tools.gs.send_file).toBe(false);
    expect(
      Object.values(config.tools.canales).every((c) => (c as Record<string, boolean>).send_file === false),
    ).toBe(true);
    config = await json(await patch({ tools: { canales: { chat: { connectors: false } } } }));
    // The answer names the changed field as the body did (the service says tools.channels).
    expect(config.aplicado).toEqual(['tools.canales']);
    expect(config.nota).toBe('The change applies from the next reply.');
    expect(config.tools.gs.send_file).toBe(false); // merged: the earlier veto stays
    expect(config.tools.canales.chat.connectors).toBe(false);
    expect(config.tools.canales.workchat.connectors).toBe(true);
    config = await json(
      await patch({ tools: { gs: { send_file: true }, canales: { msgapp1: { account_files: true } } } }),
    );
    expect(config.tools.gs.send_file).toBe(true);
    expect(config.tools.canales.prueba.send_file).toBe(true);
    expect(config.tools.canales.chat.connectors).toBe(false);
    // `true` is the default, and the default keeps a customer channel away from the owner's files.
    expect(config.tools.canales.msgapp1.account_files).toBe(false);
    const unknown = await patch({ tools: { canales: { chat: { no_such_tool: false } } } });
    expect(await json(unknown)).toEqual({
      error: 'body_invalido',
      detalle: 'tools.canales.chat: unknown tool "no_such_tool".',
    });
  });

  it('an extension veto restarts the machine and shows in the machine configuration file', async () => {
    await h.call(`${agent()}?full=1`);
    const res = await patch({ tools: { extensions: { todo: false } } });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.tools.extensions).toEqual({ todo: false });
    expect(body.nota).toContain('restarted');
    const full = await json(await h.call(`${agent()}?full=1`));
    expect(full.extensions).toContainEqual({ name: 'todo', enabled: false });
  });

  it('an engine switch keeps identity, skills and channels; a model change restarts the agent', async () => {
    const before = await tryTurn('remember the word apple', 'memory');
    expect(before.text).toContain('remember the word apple');

    const switched = await patch({ engine: 'engine-c' });
    expect(switched.status).toBe(200);
    const config = await json(switched);
    expect(config).toMatchObject({
      engine: 'engine-c',
      name: 'Helper',
      prompt: 'You are terse.',
      channels: { msgapp1: true },
      model: 'rec-small',
      models: [
        { id: 'rec-small', label: 'Recorder Small' },
        { id: 'rec-large', label: 'Recorder Large' },
      ],
    });
    expect(config.nota).toContain(
      'what it remembers of earlier conversations stays with the previous engine',
    );
    expect(spawns(recordFile).length).toBeGreaterThanOrEqual(1);
    const skills = await json(await h.call(`${agent()}/skills`));
    expect(skills.skills.map((s: { slug: string }) => s.slug)).toEqual(['hello']);

    // The new engine has none of the old engine's conversation memory.
    expect((await tryTurn('hello there', 'memory')).text).toBe('echo: hello there');

    const spawnsBefore = spawns(recordFile).length;
    const changed = await patch({ model: 'rec-large' });
    expect(changed.status).toBe(200);
    expect((await json(changed)).model).toBe('rec-large');
    expect(spawns(recordFile).length).toBe(spawnsBefore + 1); // the agent was restarted

    await tryTurn('which model?', 'models');
    const prompts = readRecord(recordFile).filter((e) => e.event === 'prompt');
    expect(prompts.at(-1)).toMatchObject({ model: 'rec-large', text: 'which model?' });

    // Back on the old engine, its conversation memory is still there.
    expect((await patch({ engine: 'engine-b' })).status).toBe(200);
    const after = await tryTurn('what did I say?', 'memory');
    expect(after.text).toContain('remember the word apple');
  });

  it('a change the machine does not take is saved and answered 502', async () => {
    const res = await patch({ engine: 'engine-d' });
    expect(res.status).toBe(502);
    const body = await json(res);
    expect(body.error).toBe('maquina_no_aplico');
    expect(body.detalle).toContain('restart');
    expect((await json(await h.call(`${agent()}?fields=engine`))).engine).toBe('engine-d');
    expect((await h.call(`${agent()}/restart`, { method: 'POST' })).status).toBe(200);
    expect(await json(await h.call(`${agent()}/restart`, { method: 'POST' }))).toMatchObject({
      reiniciado: false,
    });
  });

  it('house-lite has no machine: promptMode is refused, machine routes answer 409, skills ride along', async () => {
    const refused = await patch({ engine: 'house-lite', promptMode: 'append' });
    expect(refused.status).toBe(400);
    const res = await patch({ engine: 'house-lite' });
    expect(res.status).toBe(200);
    const config = await json(res);
    expect(config).toMatchObject({
      storage: 'bundle',
      hasMachine: false,
      engine: 'house-lite',
      model: 'house-lite-1',
    });
    expect(config).not.toHaveProperty('promptMode');
    for (const [method, route] of [
      ['GET', '/files/'],
      ['GET', '/skills'],
      ['GET', '/mcp'],
      ['POST', '/restart'],
    ] as const) {
      const answer = await h.call(`${agent()}${route}`, { method });
      expect(answer.status, `${method} ${route}`).toBe(409);
      expect(await json(answer)).toEqual({ error: 'agente_no_acp', motor: 'house-lite' });
    }
    const bundle = await json(await h.call(`${agent()}/bundle`));
    expect(bundle.files.map((f: { path: string }) => f.path)).toContain('skills/hello/SKILL.md');
    const conversations = await h.call(`/api/v2/me/agents/${h.agentId}/conversations`);
    expect(conversations.status).toBe(409);
  });
});
