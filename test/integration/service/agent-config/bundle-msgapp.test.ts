import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EMAIL } from '../../../support/local-service';
import { json, startHarness, type Harness } from './harness';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const text = (file: { contentBase64: string }) => Buffer.from(file.contentBase64, 'base64').toString('utf8');
const SKILL = (d: string) => `---\ndescription: ${d}\n---\nbody\n`;

describe('bundle over HTTP', { timeout: 120_000 }, () => {
  let h: Harness;
  let outside: string;
  const bundle = () => `/api/v2/agents/${h.agentId}/bundle`;
  const postBundle = (files: { path: string; contentBase64: string }[]) =>
    h.call(bundle(), { method: 'POST', json: { layout: 'dir', files } });
  const paths = async () => (await json(await h.call(bundle()))).files.map((f: { path: string }) => f.path);

  beforeAll(async () => {
    h = await startHarness();
    outside = await mkdtemp(path.join(tmpdir(), 'agentdesk-outside-'));
  });
  afterAll(async () => {
    await h.close();
    await rm(outside, { recursive: true, force: true });
  });

  it('GET holds instructions.md, skills/<slug>/..., knowledge/... and mcp.json of a machine agent', async () => {
    const agent = `/api/v2/agents/${h.agentId}`;
    await h.call(agent, { method: 'PATCH', json: { prompt: 'Be brief.' } });
    await h.call(`${agent}/skills/alpha`, { method: 'PUT', json: { markdown: SKILL('Alpha skill.') } });
    await h.call(`${agent}/files/knowledge/faq.md`, { method: 'PUT', body: 'Q and A' });
    await h.call(`${agent}/mcp`, {
      method: 'PUT',
      json: { servers: [{ name: 'docs', url: 'https://mcp.example.com' }] },
    });
    const body = await json(await h.call(bundle()));
    expect(body.layout).toBe('dir');
    const byPath = Object.fromEntries(
      body.files.map((f: { path: string; contentBase64: string }) => [f.path, text(f)]),
    );
    expect(Object.keys(byPath)).toEqual([
      'instructions.md',
      'skills/alpha/SKILL.md',
      'knowledge/faq.md',
      'mcp.json',
    ]);
    expect(byPath['instructions.md']).toBe('Be brief.');
    expect(byPath['knowledge/faq.md']).toBe('Q and A');
    expect(JSON.parse(byPath['mcp.json'])).toEqual({
      servers: [{ name: 'docs', type: 'http', url: 'https://mcp.example.com' }],
    });
  });

  it('POST takes the posted files as the whole bundle: aplicado, ignorado, nota', async () => {
    const res = await postBundle([
      { path: 'instructions.md', contentBase64: b64('Be thorough.') },
      { path: 'skills/beta/SKILL.md', contentBase64: b64(SKILL('Beta skill.')) },
      { path: 'skills/beta/notes/tips.md', contentBase64: b64('tips') },
      { path: 'skills/broken/SKILL.md', contentBase64: b64('no frontmatter here') },
      { path: 'knowledge/prices.md', contentBase64: b64('cheap') },
      {
        path: 'mcp.json',
        contentBase64: b64(JSON.stringify({ servers: [{ name: 'local', command: 'run-mcp' }] })),
      },
      { path: 'stray.txt', contentBase64: b64('?') },
    ]);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.aplicado.sort()).toEqual(
      [
        'instructions.md',
        'knowledge/prices.md',
        'mcp.json',
        'skills/beta/SKILL.md',
        'skills/beta/notes/tips.md',
      ].sort(),
    );
    expect(body.ignorado.sort()).toEqual(['skills/broken/SKILL.md', 'stray.txt']);
    expect(body.nota).toContain('whole bundle');
    expect(body.nota).toContain('alpha'); // removed because the bundle did not hold it
    expect(await paths()).toEqual([
      'instructions.md',
      'skills/beta/SKILL.md',
      'skills/beta/notes/tips.md',
      'knowledge/prices.md',
      'mcp.json',
    ]);
    const config = await json(await h.call(`/api/v2/agents/${h.agentId}?fields=prompt,mcp`));
    expect(config).toEqual({
      id: h.agentId,
      prompt: 'Be thorough.',
      mcp: [{ name: 'local', command: 'run-mcp' }],
    });
  });

  it('an invalid mcp.json is ignored and the saved list kept; a missing one empties it', async () => {
    const res = await postBundle([
      { path: 'instructions.md', contentBase64: b64('Be thorough.') },
      {
        path: 'mcp.json',
        contentBase64: b64(JSON.stringify({ servers: [{ name: 'plain', url: 'http://x.example' }] })),
      },
    ]);
    const body = await json(res);
    expect(body.ignorado).toEqual(['mcp.json']);
    expect(body.nota).toContain('"plain"');
    expect((await json(await h.call(`/api/v2/agents/${h.agentId}/mcp`))).servers).toEqual([
      { name: 'local', command: 'run-mcp' },
    ]);
    await postBundle([{ path: 'instructions.md', contentBase64: b64('Be thorough.') }]);
    expect((await json(await h.call(`/api/v2/agents/${h.agentId}/mcp`))).servers).toEqual([]);
    expect(await paths()).toEqual(['instructions.md', 'mcp.json']);
  });

  it('a file over 10 MB is 413 and nothing is applied', async () => {
    const res = await postBundle([
      { path: 'instructions.md', contentBase64: b64('Changed?') },
      { path: 'knowledge/huge.bin', contentBase64: Buffer.alloc(10 * 1024 * 1024 + 1).toString('base64') },
    ]);
    expect(res.status).toBe(413);
    expect((await json(res)).detalle).toContain('knowledge/huge.bin');
    expect((await json(await h.call(`/api/v2/agents/${h.agentId}?fields=prompt`))).prompt).toBe(
      'Be thorough.',
    );
  });

  it('refuses path escapes and never writes through a symlink', async () => {
    for (const escape of [
      '../escape.md',
      '/etc/escape.md',
      'knowledge/../../escape.md',
      'skills/a\\..\\x/SKILL.md',
    ]) {
      const res = await postBundle([{ path: escape, contentBase64: b64('evil') }]);
      expect(res.status, escape).toBe(400);
    }
    const odd = await json(await postBundle([{ path: 'knowledge//double.md', contentBase64: b64('x') }]));
    expect(odd.ignorado).toEqual(['knowledge//double.md']);
    const agentDir = path.join(h.service.dataDir, 'agents', h.agentId);
    expect(existsSync(path.join(agentDir, 'escape.md'))).toBe(false);
    expect(existsSync(path.join(h.service.dataDir, 'escape.md'))).toBe(false);

    // The agent itself turned its knowledge folder into a link to somewhere else.
    const work = path.join(agentDir, 'work');
    await mkdir(work, { recursive: true });
    await rm(path.join(work, 'knowledge'), { recursive: true, force: true });
    await symlink(outside, path.join(work, 'knowledge'));
    const res = await postBundle([{ path: 'knowledge/planted.md', contentBase64: b64('evil') }]);
    expect(res.status).toBe(400);
    expect((await json(res)).error).toBe('ruta_invalida');
    expect(await readdir(outside)).toEqual([]);
    await rm(path.join(work, 'knowledge'));
  });

  it('a bundle agent (house-lite) keeps its bundle on the service side', async () => {
    expect(
      (await h.call(`/api/v2/agents/${h.agentId}`, { method: 'PATCH', json: { engine: 'house-lite' } }))
        .status,
    ).toBe(200);
    await postBundle([
      { path: 'instructions.md', contentBase64: b64('Bundle only.') },
      { path: 'skills/gamma/SKILL.md', contentBase64: b64(SKILL('Gamma.')) },
      { path: 'knowledge/a/b.md', contentBase64: b64('deep') },
    ]);
    expect(await paths()).toEqual([
      'instructions.md',
      'skills/gamma/SKILL.md',
      'knowledge/a/b.md',
      'mcp.json',
    ]);
    const bundleDir = path.join(h.service.dataDir, 'agents', h.agentId, 'bundle');
    expect(existsSync(path.join(bundleDir, 'skills', 'gamma', 'SKILL.md'))).toBe(true);
    expect(existsSync(path.join(bundleDir, 'knowledge', 'a', 'b.md'))).toBe(true);
  });
});

describe('msgapp1 numbers over HTTP', { timeout: 60_000 }, () => {
  let h: Harness;
  let other: string;
  const numbers = (agentId: string) => `/api/v2/agents/${agentId}/msgapp1`;
  const put = (agentId: string, body: unknown) => h.call(numbers(agentId), { method: 'PUT', json: body });
  const state = async (agentId: string) =>
    Object.fromEntries(
      (await json(await h.call(numbers(agentId)))).numbers.map(
        (n: { id: string; mine: boolean; takenByOther: boolean }) => [n.id, [n.mine, n.takenByOther]],
      ),
    );

  beforeAll(async () => {
    h = await startHarness({
      config: {
        workspace: {
          msgapp1: {
            numbers: [
              { id: 'n1', label: '+34 600 000 001' },
              { id: 'n2', label: '+34 600 000 002' },
            ],
            salesUrl: 'https://sales.example.com/pair',
          },
        },
      },
    });
    const person = (await h.service.context.identity.persons.findByEmail(DEFAULT_EMAIL))!;
    other = (
      await h.service.context.identity.agents.create(person.id, {
        name: 'Second',
        engine: 'engine-b',
        protocol: 'acp',
      })
    ).id;
  });
  afterAll(() => h.close());

  it('GET shows the workspace numbers', async () => {
    expect(await json(await h.call(numbers(h.agentId)))).toEqual({
      numbers: [
        { id: 'n1', label: '+34 600 000 001', mine: false, takenByOther: false },
        { id: 'n2', label: '+34 600 000 002', mine: false, takenByOther: false },
      ],
      hasWorkspace: true,
      hasSales: true,
      salesUrl: 'https://sales.example.com/pair',
    });
  });

  it('PUT pairs numbers, moving one takes it from the other agent, unticking silences', async () => {
    const first = await json(await put(h.agentId, { numbers: ['n1', 'n2'] }));
    expect(first.cambiados).toBe(2);
    expect(await state(h.agentId)).toEqual({ n1: [true, false], n2: [true, false] });
    expect(await state(other)).toEqual({ n1: [false, true], n2: [false, true] });

    const moved = await json(await put(other, { numbers: ['n1'] }));
    expect(moved.cambiados).toBe(1);
    expect(await state(other)).toEqual({ n1: [true, false], n2: [false, true] });
    expect(await state(h.agentId)).toEqual({ n1: [false, true], n2: [true, false] });

    const silenced = await json(await put(h.agentId, { numbers: [] }));
    expect(silenced.cambiados).toBe(1);
    expect(await state(h.agentId)).toEqual({ n1: [false, true], n2: [false, false] });
    expect((await json(await put(h.agentId, { numbers: [] }))).cambiados).toBe(0);
  });

  it('400 body_invalido for a wrong body or an unknown number', async () => {
    for (const body of [{}, { numbers: 'n1' }, { numbers: [1] }, { numbers: ['n9'] }]) {
      const res = await put(h.agentId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).error).toBe('body_invalido');
    }
  });

  it('without a workspace there is nothing to link', async () => {
    const bare = await startHarness();
    try {
      const route = `/api/v2/agents/${bare.agentId}/msgapp1`;
      expect(await json(await bare.call(route))).toEqual({
        numbers: [],
        hasWorkspace: false,
        hasSales: false,
        salesUrl: null,
      });
      expect((await bare.call(route, { method: 'PUT', json: { numbers: ['n1'] } })).status).toBe(400);
      expect((await json(await bare.call(route, { method: 'PUT', json: { numbers: [] } }))).cambiados).toBe(
        0,
      );
    } finally {
      await bare.close();
    }
  });
});
