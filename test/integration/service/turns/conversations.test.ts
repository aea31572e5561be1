import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationResponse, ConversationsResponse } from '../../../../src/shared/api';
import { signIn, startTestService } from '../../../support/local-service';
import { createHarness, type Harness } from './harness';

// Real service, real HTTP, the real demo agent. Nothing is mocked.

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

async function turn(id: string, content: string): Promise<void> {
  const stream = await h.events(id);
  const res = await h.send(id, { content });
  await stream.untilDone(res.body.turnId as string);
  stream.close();
}

describe('conversations', () => {
  it('create, list with ultimoTurno, rename, archive', async () => {
    const id = await h.conversation();
    let list = await h.api('GET', h.path());
    expect(ConversationsResponse.parse(list.body).conversaciones).toContainEqual({
      id,
      titulo: null,
      actualizada: null,
      ultimoTurno: null,
    });
    await turn(id, 'hello');
    const renamed = await h.api('PATCH', h.path(id), { title: 'Renamed <thread>' });
    expect(renamed.status).toBe(200);
    expect((await h.api('PATCH', h.path(id), {})).status).toBe(400);
    list = await h.api('GET', h.path());
    const item = ConversationsResponse.parse(list.body).conversaciones.find((c) => c.id === id)!;
    expect(item.titulo).toBe('Renamed <thread>');
    expect(item.actualizada).toEqual(expect.any(String));
    expect(item.ultimoTurno).toMatchObject({ estado: 'done', at: expect.any(String) });

    expect((await h.api('DELETE', h.path(id))).status).toBe(200);
    list = await h.api('GET', h.path());
    expect(ConversationsResponse.parse(list.body).conversaciones.map((c) => c.id)).not.toContain(id);
    expect((await h.api('GET', h.path(id))).status).toBe(404);
  });

  it('GET one returns the tail (default 50, or limit) and how many were left out', async () => {
    const id = await h.conversation();
    for (let i = 0; i < 3; i++) await turn(id, `message ${i}`);
    const all = ConversationResponse.parse((await h.api('GET', h.path(id))).body);
    expect(all.messages).toHaveLength(6);
    expect(all.saltados).toBe(0);
    const tail = ConversationResponse.parse((await h.api('GET', h.path(id, '?limit=2'))).body);
    expect(tail.saltados).toBe(4);
    expect(tail.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(tail.messages[0]!.content).toBe('message 2');
    expect((await h.api('GET', h.path(id, '?limit=-1'))).status).toBe(400);
  });

  it('404 for an unknown conversation and for another person’s', async () => {
    expect((await h.api('GET', h.path(randomUUID()))).status).toBe(404);
    const id = await h.conversation();
    const stranger = (await signIn(h.service, { email: 'stranger@example.test' })).access_token;
    expect((await h.api('GET', h.path(id), undefined, stranger)).status).toBe(404);
    expect((await h.api('POST', h.path(id, '/messages'), { content: 'x' }, stranger)).status).toBe(404);
  });

  it('409 agente_no_acp on every conversation route of a house-lite agent', async () => {
    const me = (await h.service.context.identity.persons.findByEmail('person@example.test'))!;
    const lite = await h.service.context.identity.agents.create(me.id, {
      name: 'Lite',
      engine: 'house-lite',
      protocol: 'http',
    });
    const base = `/api/v2/me/agents/${lite.id}/conversations`;
    for (const [method, path] of [
      ['GET', base],
      ['POST', base],
      ['POST', `${base}/x/messages`],
      ['GET', `${base}/x/events`],
    ] as const) {
      const res = await h.api(method, path, method === 'POST' ? { content: 'x' } : undefined);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'agente_no_acp', motor: 'house-lite' });
    }
  });
});

describe('sharing', () => {
  it('shares with an unguessable slug; the public page escapes HTML, is noindex, and 404s once unshared', async () => {
    const id = await h.conversation();
    await turn(id, 'echo <script>alert("x")</script>');
    expect((await h.api('GET', h.path(id, '/share'))).body).toEqual({ compartida: false });
    const shared = await h.api<{ compartida: boolean; slug: string }>('POST', h.path(id, '/share'));
    expect(shared.status).toBe(200);
    expect(shared.body.compartida).toBe(true);
    expect(Buffer.from(shared.body.slug, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect((await h.api('GET', h.path(id, '/share'))).body).toEqual(shared.body);

    const page = await fetch(`${h.service.url}/s/${shared.body.slug}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-robots-tag')).toContain('noindex');
    const html = await page.text();
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    // The one script is the page's own (local times), allowed by its hash; the model's is text.
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script>alert("x")&lt;/script>');

    const unshared = await h.api('DELETE', h.path(id, '/share'));
    expect(unshared.body).toEqual({ compartida: false });
    expect((await fetch(`${h.service.url}/s/${shared.body.slug}`)).status).toBe(404);
    expect((await fetch(`${h.service.url}/s/not-a-slug`)).status).toBe(404);
  });
});

describe('durability', () => {
  it('a conversation reads back the same after a service restart', async () => {
    const first = await startTestService();
    const dataDir = first.dataDir;
    let h1: Harness | null = null;
    let h2: Harness | null = null;
    try {
      await first.close();
      h1 = await createHarness({ dataDir });
      const id = await h1.conversation();
      const stream = await h1.events(id);
      const res = await h1.send(id, { content: 'remember me', primerTurno: true });
      await stream.untilDone(res.body.turnId as string);
      const before = (await h1.api('GET', h1.path(id))).body;
      const listBefore = (await h1.api('GET', h1.path())).body;
      await h1.close();
      h1 = null;
      h2 = await createHarness({ dataDir });
      expect((await h2.api('GET', h2.path(id))).body).toEqual(before);
      expect((await h2.api('GET', h2.path())).body).toEqual(listBefore);
      // The agent's own memory also survives (session/load).
      const again = await h2.events(id);
      const next = await h2.send(id, { content: 'what did I say?' });
      const events = await again.untilDone(next.body.turnId as string);
      const reply = events
        .filter((e) => e.event === 'chunk')
        .map((e) => e.data.text)
        .join('');
      expect(reply).toContain('remember me');
    } finally {
      await h1?.close();
      await h2?.close();
      await import('node:fs/promises').then((fs) => fs.rm(dataDir, { recursive: true, force: true }));
    }
  });
});
