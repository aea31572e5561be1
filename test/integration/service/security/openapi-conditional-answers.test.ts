import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes, type RouteSpec } from '../../../../src/shared/api';
import { publishedOpenApi, type ExpectAsDocumented } from '../../../support/openapi-answers';
import { startHarness, type Harness } from '../agent-config/harness';

// Our conditional-request extensions (docs/extensions.md), over real HTTP against a real service, each answer
// checked against the /openapi.yaml that service publishes: GET bundle and GET files with If-None-Match (304
// with the ETag while nothing moved), PUT and DELETE files with If-Match / If-None-Match: * (412).

let h: Harness;
let expectAsDocumented: ExpectAsDocumented;

beforeAll(async () => {
  h = await startHarness();
  expectAsDocumented = await publishedOpenApi(h.service.url);
}, 60_000);
afterAll(() => h?.close());

const agent = () => `/api/v2/agents/${h.agentId}`;

/** GET with no condition (200 and its ETag), with that ETag (304), with another (200): all as documented. */
async function expectNotModifiedCycle(route: RouteSpec, path: string): Promise<string> {
  const first = await h.call(path);
  expect(first.status).toBe(200);
  const etag = first.headers.get('etag');
  expect(etag).toMatch(/^".+"$/);
  await expectAsDocumented(route, first);

  const same = await h.call(path, { headers: { 'If-None-Match': etag! } });
  expect(same.status).toBe(304);
  expect(same.headers.get('etag')).toBe(etag);
  await expectAsDocumented(route, same);

  const other = await h.call(path, { headers: { 'If-None-Match': '"not-this-one"' } });
  expect(other.status).toBe(200);
  await expectAsDocumented(route, other);
  return etag!;
}

describe('/openapi.yaml describes our conditional requests', () => {
  it('GET bundle: 304 with the ETag while the bundle has not changed', async () => {
    await expectNotModifiedCycle(apiRoutes.getAgentBundle, `${agent()}/bundle`);
  });

  it('GET files: 304 with the ETag while the listing has not moved, a new ETag once it has', async () => {
    const before = await expectNotModifiedCycle(apiRoutes.getAgentFiles, `${agent()}/files/`);
    await h.call(`${agent()}/files/moved.txt`, { method: 'PUT', body: 'new' });
    const after = await h.call(`${agent()}/files/`, { headers: { 'If-None-Match': before } });
    expect(after.status).toBe(200);
    await expectAsDocumented(apiRoutes.getAgentFiles, after);
  });

  it('PUT and DELETE files: a condition that does not hold is 412 version_distinta; nothing changes', async () => {
    const file = `${agent()}/files/kept.txt`;
    const written = await h.call(file, { method: 'PUT', body: 'one' });
    await expectAsDocumented(apiRoutes.putAgentFile, written);
    const etag = written.headers.get('etag')!;

    const stale = await h.call(file, { method: 'PUT', body: 'two', headers: { 'If-Match': '"stale"' } });
    expect(stale.status).toBe(412);
    expect(((await stale.clone().json()) as { error: string }).error).toBe('version_distinta');
    await expectAsDocumented(apiRoutes.putAgentFile, stale);

    const exists = await h.call(file, { method: 'PUT', body: 'two', headers: { 'If-None-Match': '*' } });
    expect(exists.status).toBe(412);
    await expectAsDocumented(apiRoutes.putAgentFile, exists);

    const gone = await h.call(file, { method: 'DELETE', headers: { 'If-Match': '"stale"' } });
    expect(gone.status).toBe(412);
    await expectAsDocumented(apiRoutes.deleteAgentFile, gone);

    const bytes = await h.call(file, { headers: { Accept: 'application/octet-stream' } });
    expect(await bytes.text()).toBe('one');
    const matching = await h.call(file, { method: 'DELETE', headers: { 'If-Match': etag } });
    expect(matching.status).toBe(200);
  });
});
