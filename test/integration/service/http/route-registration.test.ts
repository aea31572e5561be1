import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../src/service/app';
import { honoPath } from '../../../../src/service/http/register-route';
import { routes } from '../../../../src/shared/api';
import { json, startHarness, type Harness } from '../agent-config/harness';

const repo = resolve(import.meta.dirname, '../../../..');

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('the route table drives the service', () => {
  it('every entry of the table has a handler on its method and path', () => {
    const app = buildApp(h.service.context);
    const registered = new Set(app.routes.map((r) => `${r.method} ${r.path}`));
    const missing = routes.filter((r) => !registered.has(`${r.method} ${honoPath(r.path)}`));
    expect(missing.map((r) => r.operationId)).toEqual([]);
  });

  it('no route module hands Hono a path of the table: they register route entries', async () => {
    const prefixes = [...new Set(routes.map((r) => `/${r.path.split('/')[1]}`))];
    const entries = await readdir(join(repo, 'src/service'), { recursive: true, withFileTypes: true });
    const offenders: string[] = [];
    for (const entry of entries.filter((e) => e.isFile() && e.name.endsWith('.ts'))) {
      const file = join(entry.parentPath, entry.name);
      const source = await readFile(file, 'utf8');
      for (const call of source.matchAll(
        /\bapp\.(?:get|post|put|patch|delete|on|all)\(\s*(['`])([^'`]*)\1/g,
      )) {
        const path = call[2] ?? '';
        if (prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) {
          offenders.push(`${relative(repo, file)}: ${path}`);
        }
      }
    }
    expect(prefixes).toEqual(expect.arrayContaining(['/api', '/oauth2']));
    expect(offenders).toEqual([]);
  });
});

// That no path of the API is written outside the table is checked for all of src/ by
// test/unit/architecture/api-paths-only-in-route-table.test.ts.

describe('routes only parse, call and map', () => {
  it('no route module runs SQL of its own: stores and services do', async () => {
    const folder = join(repo, 'src/service/routes');
    const offenders: string[] = [];
    for (const name of await readdir(folder)) {
      const source = await readFile(join(folder, name), 'utf8');
      if (/\.prepare\(|\bctx\.db\b/.test(source)) offenders.push(name);
    }
    expect(offenders).toEqual([]);
  });
});

describe('input checked against the entry before the handler runs', () => {
  const conversations = () => `/api/v2/me/agents/${h.agentId}/conversations`;
  let one: string;
  beforeAll(async () => {
    one = `${conversations()}/${(await json(await h.call(conversations(), { method: 'POST' }))).id}`;
  });

  it('a body that fails the schema is 400 {error, detalle} naming the field', async () => {
    const res = await h.call(one, { method: 'PATCH', json: { title: 5 } });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body).toEqual({ error: 'body_invalido', detalle: expect.stringContaining('title') });
  });

  it('a body that is not JSON, not an object or missing is 400 body_invalido', async () => {
    for (const raw of ['{nope', '[1,2]', '"text"', '']) {
      const res = await h.call(one, {
        method: 'PATCH',
        body: raw,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(res.status, raw).toBe(400);
      expect((await json(res)).error, raw).toBe('body_invalido');
    }
  });

  it('a query and a path parameter that fail the schema are 400 too, with the route’s error code', async () => {
    const query = await h.call(`${one}?limit=abc`);
    expect(query.status).toBe(400);
    expect(await json(query)).toEqual({ error: 'body_invalido', detalle: expect.stringContaining('limit') });
    const slug = await h.call(`/api/v2/agents/${h.agentId}/skills/Not_A_Slug`, {
      method: 'PUT',
      json: { markdown: '---\nname: x\n---\n' },
    });
    expect(slug.status).toBe(400);
    expect(await json(slug)).toEqual({ error: 'skill_invalida', detalle: expect.stringContaining('slug') });
  });

  it('the handler sees the parsed input: the conversation is renamed', async () => {
    const res = await h.call(one, { method: 'PATCH', json: { title: 'Plans' } });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ titulo: 'Plans' });
    const list = await json(await h.call(conversations()));
    expect(list.conversaciones.map((c: { titulo: string | null }) => c.titulo)).toContain('Plans');
  });
});
