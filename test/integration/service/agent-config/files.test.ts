import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, specListing, startHarness, type Harness } from './harness';
import { rawRequest } from './raw-http';

const TEN_MB = 10 * 1024 * 1024;

describe('agent workspace files over HTTP', () => {
  let h: Harness;
  let work: string;
  let outside: string;
  const files = (p: string) => `/api/v2/agents/${h.agentId}/files/${p}`;

  beforeAll(async () => {
    h = await startHarness();
    work = path.join(h.service.dataDir, 'agents', h.agentId, 'work');
    outside = await mkdtemp(path.join(tmpdir(), 'agentdesk-outside-'));
    await writeFile(path.join(outside, 'secret.txt'), 'top secret');
  });
  afterAll(async () => {
    await h.close();
    await rm(outside, { recursive: true, force: true });
  });

  it('PUT writes raw bytes into the workspace and answers {path, bytes, en}', async () => {
    const res = await h.call(files('notes/today.md'), { method: 'PUT', body: 'hello workspace' });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ path: 'notes/today.md', bytes: 15, en: '/data/work/notes/today.md' });
    expect(await readFile(path.join(work, 'notes/today.md'), 'utf8')).toBe('hello workspace');
  });

  it('GET lists recursively under the directory with sizes, root and sub-folder', async () => {
    await h.call(files('notes/deep/inner.txt'), { method: 'PUT', body: 'abc' });
    await h.call(files('top.txt'), { method: 'PUT', body: '12345' });
    const root = await h.call(files(''));
    expect(root.status).toBe(200);
    expect(root.headers.get('cache-control')).toBe('no-store');
    expect(specListing(await json(root))).toEqual({
      dir: '/data/work',
      files: [
        { path: 'notes/deep/inner.txt', size: 3 },
        { path: 'notes/today.md', size: 15 },
        { path: 'top.txt', size: 5 },
      ],
    });
    const sub = await json(await h.call(files('notes')));
    expect(specListing(sub)).toEqual({
      dir: '/data/work/notes',
      files: [
        { path: 'notes/deep/inner.txt', size: 3 },
        { path: 'notes/today.md', size: 15 },
      ],
    });
  });

  it('GET with Accept: application/octet-stream returns the bytes of a file (our extension)', async () => {
    const bytes = Buffer.from([0, 1, 2, 254, 255, 10, 13]);
    await h.call(files('bin/data.bin'), { method: 'PUT', body: bytes });
    const res = await h.call(files('bin/data.bin'), { headers: { Accept: 'application/octet-stream' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
    // A folder asked for as bytes still answers its listing.
    const folder = await h.call(files('bin'), { headers: { Accept: 'application/octet-stream' } });
    expect(specListing(await json(folder))).toEqual({
      dir: '/data/work/bin',
      files: [{ path: 'bin/data.bin', size: 7 }],
    });
  });

  it('`.../files` without a trailing slash lists the root too', async () => {
    const res = await h.call(`/api/v2/agents/${h.agentId}/files`);
    expect(res.status).toBe(200);
    expect((await json(res)).dir).toBe('/data/work');
  });

  it('a file path without the octet-stream Accept lists that one file', async () => {
    const res = await h.call(files('top.txt'));
    expect(specListing(await json(res))).toEqual({
      dir: '/data/work',
      files: [{ path: 'top.txt', size: 5 }],
    });
  });

  it('PUT takes effect at once: the new bytes are read back without any restart', async () => {
    await h.call(files('top.txt'), { method: 'PUT', body: 'changed' });
    const res = await h.call(files('top.txt'), { headers: { Accept: 'application/octet-stream' } });
    expect(await res.text()).toBe('changed');
  });

  it('PUT with an empty body is 400', async () => {
    const res = await h.call(files('empty.txt'), { method: 'PUT', body: new Uint8Array(0) });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toBe('body_invalido');
    expect(existsSync(path.join(work, 'empty.txt'))).toBe(false);
  });

  it('PUT of exactly 10 MB is accepted and 10 MB + 1 byte is 413', async () => {
    const ok = await h.call(files('big/exact.bin'), { method: 'PUT', body: new Uint8Array(TEN_MB) });
    expect(ok.status).toBe(200);
    expect((await json(ok)).bytes).toBe(TEN_MB);
    const over = await h.call(files('big/over.bin'), { method: 'PUT', body: new Uint8Array(TEN_MB + 1) });
    expect(over.status).toBe(413);
    expect((await json(over)).error).toBe('archivo demasiado grande');
    expect(existsSync(path.join(work, 'big/over.bin'))).toBe(false);
  });

  it('refuses `..`, absolute paths, backslashes and encoded escapes: nothing outside is written', async () => {
    const auth = { Authorization: `Bearer ${h.accessToken}` };
    const base = `/api/v2/agents/${h.agentId}/files/`;
    const escapes = [
      '..%2f..%2f..%2fescaped.txt',
      '%2e%2e%2f%2e%2e%2fescaped.txt',
      'notes/..%2F..%2Fescaped.txt',
      '%2Ftmp%2Fescaped.txt',
      '/tmp/escaped.txt',
      '..%5C..%5Cescaped.txt',
      'notes/%00escaped.txt',
      'C:escaped.txt',
    ];
    for (const escape of escapes) {
      const put = await rawRequest(h.service.url, 'PUT', base + escape, auth, Buffer.from('evil'));
      expect([400, 404], `PUT ${escape}`).toContain(put.status);
      const get = await rawRequest(h.service.url, 'GET', base + escape, {
        ...auth,
        Accept: 'application/octet-stream',
      });
      expect([400, 404], `GET ${escape}`).toContain(get.status);
    }
    // Literal `..` segments on the wire too.
    const literal = await rawRequest(
      h.service.url,
      'PUT',
      `${base}notes/../../escaped.txt`,
      auth,
      Buffer.from('evil'),
    );
    expect([400, 404]).toContain(literal.status);
    const agentDir = path.join(h.service.dataDir, 'agents', h.agentId);
    expect(existsSync(path.join(agentDir, 'escaped.txt'))).toBe(false);
    expect(existsSync(path.join(h.service.dataDir, 'escaped.txt'))).toBe(false);
    expect(existsSync('/tmp/escaped.txt')).toBe(false);
  });

  it('never follows a symlink out of the workspace, for reads, writes, listings or deletes', async () => {
    await mkdir(work, { recursive: true });
    await symlink(outside, path.join(work, 'linkdir'));
    await symlink(path.join(outside, 'secret.txt'), path.join(work, 'leak.txt'));

    const write = await h.call(files('linkdir/planted.txt'), { method: 'PUT', body: 'evil' });
    expect(write.status).toBe(400);
    expect((await json(write)).error).toBe('ruta_invalida');
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);

    const read = await h.call(files('leak.txt'), { headers: { Accept: 'application/octet-stream' } });
    expect(read.status).toBe(400);
    expect(await read.text()).not.toContain('top secret');
    const readThrough = await h.call(files('linkdir/secret.txt'), {
      headers: { Accept: 'application/octet-stream' },
    });
    expect(readThrough.status).toBe(400);

    const overwrite = await h.call(files('leak.txt'), { method: 'PUT', body: 'replaced' });
    expect(overwrite.status).toBe(400);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    await rm(path.join(work, 'leak.txt'));

    const listing = await json(await h.call(files('')));
    expect(listing.files.map((f: { path: string }) => f.path)).not.toContain('linkdir/secret.txt');

    const del = await h.call(files('linkdir/secret.txt'), { method: 'DELETE' });
    expect(del.status).toBe(400);
    expect(existsSync(path.join(outside, 'secret.txt'))).toBe(true);
    await rm(path.join(work, 'linkdir'));
  });

  it('the skills folder is reserved for the skills routes', async () => {
    const res = await h.call(files('.agents/skills/sneaky/SKILL.md'), { method: 'PUT', body: 'x' });
    expect(res.status).toBe(400);
    expect((await json(res)).detalle).toContain('/skills/');
  });

  it('DELETE removes a file (200) and a second DELETE is 404', async () => {
    const del = await h.call(files('notes/today.md'), { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(await json(del)).toEqual({ ok: true });
    expect(existsSync(path.join(work, 'notes/today.md'))).toBe(false);
    expect((await h.call(files('notes/today.md'), { method: 'DELETE' })).status).toBe(404);
    expect(
      (await h.call(files('notes/today.md'), { headers: { Accept: 'application/octet-stream' } })).status,
    ).toBe(404);
  });

  it('accepts the agent token of this agent', async () => {
    const res = await h.call(files(''), { token: await h.agentToken() });
    expect(res.status).toBe(200);
  });
});
