import { access } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePerson, signIn } from '../../../support/local-service';
import { json, startHarness, type Harness } from './harness';

// Our extension over real HTTP: the starting points, making an agent (with and without one), the refusals in
// the spec's error shape, and deleting one with its conversations and folder. Also the first agent's name in
// the caller's language.

describe('making and deleting agents (our extension)', { timeout: 120_000 }, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const create = (body: unknown) => h.call('/api/v2/me/agents', { method: 'POST', json: body });
  const names = async () =>
    ((await json(await h.call('/api/v2/me/agents'))).agentes as { nombre: string }[]).map((a) => a.nombre);

  it('lists starting points built from the catalog’s skills', async () => {
    const res = await h.call('/api/v2/me/agent-starts');
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.inicios.map((s: { id: string }) => s.id)).toEqual(['writer', 'coder', 'researcher']);
    expect(body.inicios[0]).toMatchObject({
      id: 'writer',
      nombre: 'Writer',
      descripcion: expect.any(String),
    });
    const catalog = await json(await h.call(`/api/v2/agents/${h.agentId}/skills`));
    const slugs = new Set(catalog.community.map((c: { slug: string }) => c.slug));
    for (const start of body.inicios) for (const skill of start.skills) expect(slugs.has(skill)).toBe(true);
  });

  it('refuses in words: no name, too long a name, an unknown starting point', async () => {
    for (const [body, code] of [
      [{ nombre: '   ' }, 'body_invalido'],
      [{ nombre: 'x'.repeat(65) }, 'body_invalido'],
      [{}, 'body_invalido'],
      [{ nombre: 'Ok', inicio: 'astronaut' }, 'inicio_desconocido'],
      // Control characters (a terminal's escape, a NUL) and direction overrides that disguise a name.
      [{ nombre: 'Red\u001b[31m' }, 'body_invalido'],
      [{ nombre: 'a\u0000b' }, 'body_invalido'],
      [{ nombre: 'two\nlines' }, 'body_invalido'],
      [{ nombre: 'Helper\u202Egpj.exe' }, 'body_invalido'],
      [{ nombre: 'Ok', extra: true }, 'body_invalido'],
      [{ nombre: 7 }, 'body_invalido'],
    ] as const) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const answer = await json(res);
      expect(answer.error).toBe(code);
      expect(answer.detalle.length).toBeGreaterThan(10);
    }
    const hidden = await json(await create({ nombre: 'two\nlines' }));
    expect(hidden.detalle).toContain('one line of visible text');
    expect(await names()).toEqual(['Assistant']);
  });

  it('the spec’s PATCH of a name refuses what POST refuses, with the same answer', async () => {
    const patch = (name: unknown) =>
      h.call(`/api/v2/agents/${h.agentId}`, { method: 'PATCH', json: { name } });
    for (const name of [
      'Red\u001b[31m',
      'a\u0000b',
      'two\nlines',
      'tab\there',
      'Helper\u202Egpj.exe',
      '   ',
    ]) {
      const [byPatch, byPost] = [await patch(name), await create({ nombre: name })];
      expect([byPatch.status, byPost.status], JSON.stringify(name)).toEqual([400, 400]);
      const [patchAnswer, postAnswer] = [await json(byPatch), await json(byPost)];
      expect(patchAnswer.error).toBe('body_invalido');
      // The same words; only the field's name differs (name in the spec's PATCH, nombre in our POST).
      expect(patchAnswer.detalle.replace(/^name: /, '')).toBe(postAnswer.detalle.replace(/^nombre: /, ''));
    }
    expect((await json(await h.call(`/api/v2/agents/${h.agentId}`))).name).toBe('Assistant');
    const renamed = await patch('  Helper  ');
    expect(renamed.status).toBe(200);
    expect((await json(renamed)).name).toBe('Helper');
    expect(await names()).toEqual(['Helper']);
    expect((await patch('Assistant')).status).toBe(200);
  });

  it('makes an empty agent and one from a starting point, each with its own settings and workspace', async () => {
    const empty = await create({ nombre: 'Scratch' });
    expect(empty.status).toBe(201);
    const made = await json(empty);
    expect(made).toMatchObject({ nombre: 'Scratch', origen: 'gs', protocolo: 'acp', conexion: null });

    const coder = await json(await create({ nombre: 'Coder', inicio: 'coder' }));
    const config = await json(await h.call(`/api/v2/agents/${coder.id}`));
    expect(config.prompt).toContain('software engineer');
    const skills = await json(await h.call(`/api/v2/agents/${coder.id}/skills`));
    expect(skills.skills.map((s: { slug: string }) => s.slug)).toEqual(['commit-message']);
    // The empty one kept the defaults and no skills.
    const emptySkills = await json(await h.call(`/api/v2/agents/${made.id}/skills`));
    expect(emptySkills.skills).toEqual([]);
    expect(await names()).toEqual(['Assistant', 'Scratch', 'Coder']);
  });

  it('deletes an agent with its conversations and folder; never the last one, never another person’s', async () => {
    const agents = (await json(await h.call('/api/v2/me/agents'))).agentes as {
      id: string;
      nombre: string;
    }[];
    const scratch = agents.find((a) => a.nombre === 'Scratch')!;
    const conversation = await json(
      await h.call(`/api/v2/me/agents/${scratch.id}/conversations`, { method: 'POST' }),
    );
    const put = await h.call(`/api/v2/agents/${scratch.id}/files/note.txt`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: 'kept in its workspace',
    });
    expect(put.status).toBe(200);
    const folder = path.join(h.service.dataDir, 'agents', scratch.id);
    await access(path.join(folder, 'work', 'note.txt'));

    // Another person cannot delete it: 404, as for any agent not theirs.
    await ensurePerson(h.service, 'other@example.test', 'another long password');
    const other = await signIn(h.service, { email: 'other@example.test', password: 'another long password' });
    const foreign = await h.call(`/api/v2/me/agents/${scratch.id}`, {
      method: 'DELETE',
      token: other.access_token,
    });
    expect(foreign.status).toBe(404);

    // A reply still running: stop it first.
    const base = `/api/v2/me/agents/${scratch.id}/conversations/${conversation.id}`;
    const sent = await h.call(`${base}/messages`, { method: 'POST', json: { content: 'wait 30' } });
    expect(sent.status).toBe(202);
    const busy = await h.call(`/api/v2/me/agents/${scratch.id}`, { method: 'DELETE' });
    expect(busy.status).toBe(409);
    expect((await json(busy)).error).toBe('turno_en_curso');
    expect((await h.call(`${base}/cancel`, { method: 'POST' })).status).toBe(200);
    await expect
      .poll(() => h.service.context.conversations.manager.currentTurnId(conversation.id), { timeout: 20_000 })
      .toBeNull();

    const deleted = await h.call(`/api/v2/me/agents/${scratch.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toEqual({ borrado: true });
    expect((await h.call(`/api/v2/me/agents/${scratch.id}/conversations/${conversation.id}`)).status).toBe(
      404,
    );
    await expect(access(folder)).rejects.toThrow();

    const coder = agents.find((a) => a.nombre === 'Coder')!;
    expect((await h.call(`/api/v2/me/agents/${coder.id}`, { method: 'DELETE' })).status).toBe(200);
    const last = await h.call(`/api/v2/me/agents/${h.agentId}`, { method: 'DELETE' });
    expect(last.status).toBe(409);
    expect((await json(last)).error).toBe('ultimo_agente');
    expect(await names()).toEqual(['Assistant']);
  });

  it('names a new account’s first agent in the caller’s language, English otherwise', async () => {
    const cases = [
      ['es-ES,es;q=0.9,en;q=0.8', 'Asistente'],
      ['de', 'Assistent'],
      ['xx, fr;q=0.5', 'Assistant'],
      ['', 'Assistant'],
    ] as const;
    for (const [index, [language, expected]] of cases.entries()) {
      const email = `lang${index}@example.test`;
      await ensurePerson(h.service, email, 'a long enough password');
      const tokens = await signIn(h.service, { email, password: 'a long enough password' });
      const res = await h.call('/api/v2/me/agents', {
        token: tokens.access_token,
        headers: language ? { 'Accept-Language': language } : {},
      });
      expect(
        (await json(res)).agentes.map((a: { nombre: string }) => a.nombre),
        language,
      ).toEqual([expected]);
    }
  });
});
