/**
 * The service's conditional-write extension for workspace files (docs/sync.md, "Races"):
 * an ETag on each listing entry, on the bytes and on the listing itself; If-Match and
 * If-None-Match on PUT and DELETE; 412 `{error, detalle}` when the file moved. Real service, real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAgentId, signIn, startTestService, type TestService } from '../../support/local-service';

let service: TestService;
let token: string;
let filesUrl: string;

beforeAll(async () => {
  service = await startTestService();
  token = (await signIn(service, { scopes: ['agents:read', 'agents:write'] })).access_token;
  filesUrl = `${service.url}/api/v2/agents/${await firstAgentId(service, token)}/files`;
});
afterAll(async () => {
  await service.cleanup();
});

const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${filesUrl}/${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });

const put = (path: string, text: string, headers: Record<string, string> = {}) =>
  call(path, {
    method: 'PUT',
    body: text,
    headers: { 'content-type': 'application/octet-stream', ...headers },
  });

async function etagInListing(path: string): Promise<string> {
  const listing = (await (await call('')).json()) as { files: { path: string; etag?: string }[] };
  const entry = listing.files.find((f) => f.path === path);
  if (!entry?.etag) throw new Error(`no etag for ${path}`);
  return entry.etag;
}

describe('workspace file versions', () => {
  it('gives the same version in the listing, on the bytes and after a PUT', async () => {
    const written = await put('v/a.txt', 'one');
    expect(written.status).toBe(200);
    const fromPut = written.headers.get('etag');
    const bytes = await call('v/a.txt', { headers: { accept: 'application/octet-stream' } });
    expect(await bytes.text()).toBe('one');
    expect(bytes.headers.get('etag')).toBe(fromPut);
    expect(await etagInListing('v/a.txt')).toBe(fromPut);
  });

  it('writes with If-Match only while the file is at that version, else 412 in the error shape', async () => {
    await put('v/b.txt', 'first');
    const seen = await etagInListing('v/b.txt');
    expect((await put('v/b.txt', 'second', { 'if-match': seen })).status).toBe(200);
    const stale = await put('v/b.txt', 'third', { 'if-match': seen });
    expect(stale.status).toBe(412);
    const body = (await stale.json()) as { error: string; detalle: string };
    expect(body.error).toBe('version_distinta');
    expect(body.detalle).toMatch(/changed since you read it/);
    const now = await call('v/b.txt', { headers: { accept: 'application/octet-stream' } });
    expect(await now.text()).toBe('second');
  });

  it('creates with If-None-Match: * only when no file is there', async () => {
    expect((await put('v/new.txt', 'made', { 'if-none-match': '*' })).status).toBe(200);
    const again = await put('v/new.txt', 'made twice', { 'if-none-match': '*' });
    expect(again.status).toBe(412);
    const now = await call('v/new.txt', { headers: { accept: 'application/octet-stream' } });
    expect(await now.text()).toBe('made');
  });

  it('deletes with If-Match only at that version', async () => {
    await put('v/d.txt', 'keep me');
    const seen = await etagInListing('v/d.txt');
    await put('v/d.txt', 'changed by the agent');
    expect((await call('v/d.txt', { method: 'DELETE', headers: { 'if-match': seen } })).status).toBe(412);
    const fresh = await etagInListing('v/d.txt');
    expect((await call('v/d.txt', { method: 'DELETE', headers: { 'if-match': fresh } })).status).toBe(200);
  });

  it('answers 304 to a listing asked with its own version, and 200 once a file moved', async () => {
    const first = await call('');
    const version = first.headers.get('etag');
    expect(version).toBeTruthy();
    expect((await call('', { headers: { 'if-none-match': version! } })).status).toBe(304);
    await put('v/moved.txt', 'new');
    const after = await call('', { headers: { 'if-none-match': version! } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(version);
  });
});
