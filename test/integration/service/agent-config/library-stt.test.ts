import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock } from '../../../../src/service/index';
import { signIn } from '../../../support/local-service';
import { json, startHarness, type Harness } from './harness';

describe('account file library over HTTP', { timeout: 60_000 }, () => {
  const clock = createTestClock(Date.now());
  let h: Harness;
  const upload = (
    nombre: string | null,
    body: RequestInit['body'],
    type = 'application/octet-stream',
    token?: string,
  ) =>
    h.call(`/api/v2/me/files${nombre === null ? '' : `?nombre=${encodeURIComponent(nombre)}`}`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': type },
      ...(token ? { token } : {}),
    });

  beforeAll(async () => {
    h = await startHarness({ clock });
  });
  afterAll(() => h.close());

  it('POST stores raw bytes and answers an Archivo with a signed URL that serves them', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const res = await upload('pixel.png', png, 'image/png');
    expect(res.status).toBe(200);
    const file = await json(res);
    expect(file).toMatchObject({ nombre: 'pixel.png', mimeType: 'image/png', size: png.byteLength });
    // A plain-English path: the link a person copies or opens carries no wire word.
    expect(file.url).toMatch(new RegExp(`^${h.service.url}/files/${file.id}\\?exp=\\d+&sig=[\\w-]+$`));
    // No bearer: the signature is the credential.
    const served = await fetch(file.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(png);
    // A link handed out before, at the old path, still serves the same bytes.
    const old = await fetch(file.url.replace('/files/', '/archivos/'));
    expect(old.status).toBe(200);
    expect(Buffer.from(await old.arrayBuffer())).toEqual(png);
  });

  it('guesses the type from the name when the upload does not say, and needs nombre', async () => {
    const md = await json(await upload('notes.md', '# notes'));
    expect(md.mimeType).toBe('text/markdown; charset=utf-8');
    const served = await fetch(md.url);
    expect(served.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await served.text()).toBe('# notes');
    const missing = await upload(null, 'x');
    expect(missing.status).toBe(400);
    expect((await json(missing)).error).toBe('body_invalido');
    expect((await upload('', 'x')).status).toBe(400);
  });

  it('lists files, gives a fresh URL, and refuses tampered and expired URLs', async () => {
    const file = await json(await upload('report.txt', 'quarterly numbers', 'text/plain'));
    const list = await json(await h.call('/api/v2/me/files'));
    expect(list.archivos.map((a: { id: string }) => a.id)).toContain(file.id);
    expect(Object.keys(list.archivos[0]).sort()).toEqual(['id', 'mimeType', 'nombre', 'size', 'url']);

    const url = new URL(file.url);
    const sig = url.searchParams.get('sig')!;
    const tampered = [
      `${url.origin}${url.pathname}?exp=${url.searchParams.get('exp')}&sig=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`,
      `${url.origin}${url.pathname}?exp=${Number(url.searchParams.get('exp')) + 3600}&sig=${sig}`,
      `${url.origin}${url.pathname}?exp=${url.searchParams.get('exp')}`,
      `${url.origin}/files/${list.archivos.find((a: { id: string }) => a.id !== file.id).id}${url.search}`,
    ];
    for (const bad of tampered) {
      const res = await fetch(bad);
      expect(res.status, bad).toBe(403);
      expect((await json(res)).error).toBe('firma_invalida');
    }

    clock.advance(6 * 60 * 60 * 1000 - 5_000);
    expect((await fetch(file.url)).status).toBe(200);
    clock.advance(10_000);
    const expired = await fetch(file.url);
    expect(expired.status).toBe(403);
    expect((await json(expired)).error).toBe('url_caducada');

    // The access token aged too; sign in again and ask for a fresh URL.
    const fresh = await signIn(h.service);
    const again = await h.call(`/api/v2/me/files/${file.id}`, { token: fresh.access_token });
    const { url: renewed } = await json(again);
    expect(renewed).not.toBe(file.url);
    expect(await (await fetch(renewed)).text()).toBe('quarterly numbers');
    h.accessToken = fresh.access_token;
  });

  it("another person's file is 404, and DELETE removes a file and its URL", async () => {
    const file = await json(await upload('mine.txt', 'mine', 'text/plain'));
    const stranger = await signIn(h.service, { email: 'stranger@example.test' });
    expect((await h.call(`/api/v2/me/files/${file.id}`, { token: stranger.access_token })).status).toBe(404);
    expect(
      await json(
        await h.call(`/api/v2/me/files/${file.id}`, { method: 'DELETE', token: stranger.access_token }),
      ),
    ).toEqual({
      deleted: false,
    });
    expect(await json(await h.call(`/api/v2/me/files/${file.id}`, { method: 'DELETE' }))).toEqual({
      deleted: true,
    });
    expect(await json(await h.call(`/api/v2/me/files/${file.id}`, { method: 'DELETE' }))).toEqual({
      deleted: false,
    });
    expect((await fetch(file.url)).status).toBe(404);
    expect((await h.call(`/api/v2/me/files/${file.id}`)).status).toBe(404);
  });

  it('needs the files scope', async () => {
    const narrow = await signIn(h.service, { scopes: ['agents:read'] });
    expect((await h.call('/api/v2/me/files', { token: narrow.access_token })).status).toBe(403);
    expect((await upload('x.txt', 'x', 'text/plain', narrow.access_token)).status).toBe(403);
  });
});

/** Speech made by espeak-ng: the same words, as WAV (22 kHz) and as Ogg/Opus. */
async function speech(dir: string, words: string): Promise<{ wav: Buffer; ogg: Buffer }> {
  const wav = path.join(dir, 'speech.wav');
  const ogg = path.join(dir, 'speech.ogg');
  execFileSync('espeak-ng', ['-v', 'en-us+m1', '-s', '130', '-w', wav, words]);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', wav, '-c:a', 'libopus', ogg]);
  return { wav: await readFile(wav), ogg: await readFile(ogg) };
}

describe('POST /api/v2/me/stt', { timeout: 120_000 }, () => {
  let scratch: string;
  let audio: { wav: Buffer; ogg: Buffer };

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'agentdesk-stt-'));
    audio = await speech(scratch, 'please call me tomorrow morning');
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it('transcribes espeak-ng speech with pocketsphinx, WAV and Ogg/Opus alike; 413 over the plan cap', async () => {
    const h = await startHarness({ config: { stt: { maxBytes: 200_000 } } });
    try {
      const stt = (body: Uint8Array, type: string) =>
        h.call('/api/v2/me/stt', { method: 'POST', body, headers: { 'Content-Type': type } });
      const fromWav = await stt(audio.wav, 'audio/wav');
      expect(fromWav.status).toBe(200);
      const wavText = (await json(fromWav)).text;
      expect(wavText).toMatch(/tomorrow/);
      const fromOgg = await stt(audio.ogg, 'audio/ogg; codecs=opus');
      expect(fromOgg.status).toBe(200);
      expect((await json(fromOgg)).text).toMatch(/tomorrow/);

      const tooBig = await stt(new Uint8Array(200_001), 'audio/wav');
      expect(tooBig.status).toBe(413);
      expect((await json(tooBig)).error).toBe('audio demasiado grande');
      expect((await stt(audio.wav, 'text/plain')).status).toBe(400);
      expect((await stt(new Uint8Array(0), 'audio/wav')).status).toBe(400);
      const garbage = await stt(Buffer.from('not audio at all'), 'audio/ogg');
      expect(garbage.status).toBe(400);
      expect((await json(garbage)).error).toBe('audio_invalido');
    } finally {
      await h.close();
    }
  });

  it('without an engine set up it answers 503 {error, detalle}', async () => {
    const h = await startHarness({ config: { stt: { engines: ['openai'] } } });
    try {
      const res = await h.call('/api/v2/me/stt', {
        method: 'POST',
        body: audio.wav,
        headers: { 'Content-Type': 'audio/wav' },
      });
      expect(res.status).toBe(503);
      const body = await json(res);
      expect(body.error).toBe('stt_no_disponible');
      expect(body.detalle).toContain('No transcription engine is set up');
    } finally {
      await h.close();
    }
  });

  it('uses a configured OpenAI-compatible endpoint', async () => {
    // Stands in for a hosted transcription service, which cannot be reached from here.
    const seen: { auth?: string; body: string }[] = [];
    const fake: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ auth: req.headers.authorization, body: Buffer.concat(chunks).toString('latin1') });
        res.writeHead(req.url === '/v1/audio/transcriptions' ? 200 : 404, {
          'Content-Type': 'application/json',
        });
        res.end(JSON.stringify({ text: 'please call me tomorrow morning' }));
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
    const h = await startHarness({
      config: { stt: { engines: ['openai'], openai: { baseUrl, apiKey: 'sk-test' } } },
    });
    try {
      const res = await h.call('/api/v2/me/stt', {
        method: 'POST',
        body: audio.ogg,
        headers: { 'Content-Type': 'audio/ogg' },
      });
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ text: 'please call me tomorrow morning' });
      expect(seen[0]?.auth).toBe('Bearer sk-test');
      expect(seen[0]?.body).toContain('name="model"');
      expect(seen[0]?.body).toContain('whisper-1');
      expect(seen[0]?.body).toContain('filename="audio.ogg"');
    } finally {
      await h.close();
      await new Promise((resolve) => fake.close(resolve));
    }
  });
});
