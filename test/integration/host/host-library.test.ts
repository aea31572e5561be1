import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryReadBytesMax, type UploadProgress } from '../../../src/shared/bridge';
import type { FetchLike } from '../../../src/core/common/result';
import { createApiClient } from '../../../src/core/api/api-client';
import { staticTokenSource } from '../../../src/core/auth/access-token-source';
import { silentLogger } from '../../../src/core/log/logger';
import { createLibraryArea } from '../../../src/core/host/library/library';
import { toDeskResult } from '../../../src/core/host/plumbing/call-results';
import type { WithApi } from '../../../src/core/host/plumbing/with-api';
import { signIn, startTestService, type TestService } from '../../support/local-service';

// The host's library area against the real local service over HTTP: uploads report their progress
// and can be cancelled midway, files are read back through their signed URL (up to the host's read cap),
// and audio over the
// plan's cap comes back as the API's 413.

describe('host library area', { timeout: 60_000 }, () => {
  let service: TestService;
  let library: ReturnType<typeof createLibraryArea>;

  beforeAll(async () => {
    // The library's cap raised above the host's read cap, so a file too large to bring to the page can exist.
    service = await startTestService({
      config: { stt: { maxBytes: 1000 }, library: { maxBytes: libraryReadBytesMax + 1024 } },
    });
    const token = (await signIn(service)).access_token;
    const api = createApiClient({ baseUrl: service.url, auth: staticTokenSource(token) });
    const withApi: WithApi = async (run) => toDeskResult(await run(api));
    library = createLibraryArea({ withApi, logger: silentLogger, fetch: countedFetch });
  });

  afterAll(async () => {
    library.close();
    await service.cleanup();
  });

  let fetched = 0;
  const countedFetch: FetchLike = (input, init) => {
    fetched++;
    return fetch(input, init);
  };
  const bytes = (size: number) => Buffer.alloc(size, 7).toString('base64');

  it('reports the progress of an upload up to its size, and the file is listed with it', async () => {
    const seen: UploadProgress[] = [];
    const stop = library.onUploadProgress((p) => seen.push(p));
    const uploaded = await library.uploadFile({
      name: 'two-mb.bin',
      dataBase64: bytes(2_000_000),
      uploadId: 'u1',
    });
    stop();
    expect(uploaded).toMatchObject({ ok: true, value: { name: 'two-mb.bin', size: 2_000_000 } });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((p) => p.uploadId === 'u1' && p.total === 2_000_000)).toBe(true);
    expect(seen.map((p) => p.sent)).toEqual([...seen.map((p) => p.sent)].sort((a, b) => a - b));
    expect(seen.at(-1)?.sent).toBe(2_000_000);
  });

  it('cancels a running upload: it fails as cancelled and the server keeps nothing', async () => {
    const stop = library.onUploadProgress((p) => {
      // The first report comes as the body starts to go; the cancel lands while fetch is sending it.
      if (p.uploadId === 'u2' && p.sent < p.total) void library.cancelUpload('u2');
    });
    const uploaded = await library.uploadFile({
      name: 'cancelled.bin',
      dataBase64: bytes(8_000_000),
      uploadId: 'u2',
    });
    stop();
    expect(uploaded).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    const listed = await library.listFiles();
    expect(listed.ok && listed.value.map((f) => f.name)).not.toContain('cancelled.bin');
    expect(await library.cancelUpload('u2')).toEqual({ ok: true, value: false });
  });

  it('reads a file back through its signed URL', async () => {
    const uploaded = await library.uploadFile({
      name: 'hello.txt',
      mimeType: 'text/plain',
      dataBase64: Buffer.from('hello library').toString('base64'),
    });
    if (!uploaded.ok) throw new Error(uploaded.error.message);
    const read = await library.downloadFile(uploaded.value.id);
    expect(read).toMatchObject({ ok: true, value: { name: 'hello.txt', mimeType: 'text/plain' } });
    expect(read.ok && Buffer.from(read.value.dataBase64, 'base64').toString()).toBe('hello library');
    expect(await library.downloadFile('no-such-file')).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('refuses to read a file over its read cap (20 MB) before fetching its bytes', async () => {
    const uploaded = await library.uploadFile({
      name: 'huge.bin',
      dataBase64: bytes(libraryReadBytesMax + 1),
    });
    if (!uploaded.ok) throw new Error(uploaded.error.message);
    fetched = 0;
    expect(await library.downloadFile(uploaded.value.id)).toMatchObject({
      ok: false,
      error: { code: 'too_large', message: 'huge.bin is larger than 20 MB.' },
    });
    expect(fetched).toBe(0);
  });

  it('passes a too-large recording on as the 413, and refuses what is not audio before sending', async () => {
    const tooLong = await library.transcribe({ audioBase64: bytes(5000), mimeType: 'audio/wav' });
    expect(tooLong).toMatchObject({ ok: false, error: { status: 413 } });
    expect(await library.transcribe({ audioBase64: bytes(10), mimeType: 'text/plain' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
  });
});
