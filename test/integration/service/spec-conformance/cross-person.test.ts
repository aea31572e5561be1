import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock } from '../../../../src/service/index';
import { firstAgentId, signIn, startTestService, type TestService } from '../../../support/local-service';

// Two people on one service. A person's data is readable by that person only: the other one, holding a
// valid token of their own and the first one's ids, meets the spec's 404 on every route that names them
// (the bearer matrix covers another person's *agent*; this covers their conversations, schedules and
// files reached through one's own agent or library). Then: a sign-in that ends ends its open streams too.
const clock = createTestClock(Date.now());
let service: TestService;
let alice: { token: string; refresh: string; agent: string };
let bob: { token: string; agent: string };
let aliceSession: string;
let aliceSchedule: string;
let aliceFile: { id: string; url: string };

const api = (path: string) => `${service.url}/api/v2${path}`;
const auth = (token: string, json = false) => ({
  Authorization: `Bearer ${token}`,
  ...(json ? { 'Content-Type': 'application/json' } : {}),
});

beforeAll(async () => {
  service = await startTestService({ clock });
  const a = await signIn(service, { email: 'alice@example.test' });
  const b = await signIn(service, { email: 'bob@example.test' });
  alice = {
    token: a.access_token,
    refresh: a.refresh_token,
    agent: await firstAgentId(service, a.access_token),
  };
  bob = { token: b.access_token, agent: await firstAgentId(service, b.access_token) };
  const created = await fetch(api(`/me/agents/${alice.agent}/conversations`), {
    method: 'POST',
    headers: auth(alice.token),
  });
  aliceSession = ((await created.json()) as { id: string }).id;
  const scheduled = await fetch(api(`/me/agents/${alice.agent}/conversations/${aliceSession}/schedule`), {
    method: 'POST',
    headers: auth(alice.token, true),
    body: JSON.stringify({ prompt: 'remind me', inMinutes: 30 }),
  });
  aliceSchedule = ((await scheduled.json()) as { programado: { id: string } }).programado.id;
  const uploaded = await fetch(api('/me/files?nombre=private.txt'), {
    method: 'POST',
    headers: { ...auth(alice.token), 'Content-Type': 'text/plain' },
    body: 'alice only',
  });
  aliceFile = (await uploaded.json()) as { id: string; url: string };
}, 60_000);
afterAll(() => service.cleanup());

// Bob names Alice's conversation under his OWN agent (which the guard lets through), and under hers.
const conversationRoutes: [string, string, unknown?][] = [
  ['GET', ''],
  ['PATCH', '', { title: 'mine now' }],
  ['DELETE', ''],
  ['GET', '/share'],
  ['POST', '/share'],
  ['DELETE', '/share'],
  ['POST', '/messages', { content: 'hello' }],
  ['GET', '/events'],
  ['POST', '/cancel'],
  ['POST', '/permission', { id: 'p1', optionId: 'allow' }],
  ['POST', '/model', { model: 'demo-deep' }],
  ['GET', '/schedule'],
  ['POST', '/schedule', { prompt: 'x', inMinutes: 5 }],
];

describe('another person’s conversation', () => {
  it.each(conversationRoutes)(
    '%s …/{her session}%s → 404 under his agent and under hers',
    async (method, suffix, body) => {
      for (const agent of [bob.agent, alice.agent]) {
        const answer = await fetch(api(`/me/agents/${agent}/conversations/${aliceSession}${suffix}`), {
          method,
          headers: auth(bob.token, body !== undefined),
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        expect(answer.status, agent === bob.agent ? 'his agent' : 'her agent').toBe(404);
        if (suffix !== '/permission') expect(await answer.json()).toMatchObject({ error: 'not_found' });
        else await answer.body?.cancel();
      }
    },
  );

  it('her schedule item cannot be cancelled from his conversation or through hers', async () => {
    const his = await fetch(api(`/me/agents/${bob.agent}/conversations`), {
      method: 'POST',
      headers: auth(bob.token),
    });
    const hisSession = ((await his.json()) as { id: string }).id;
    for (const path of [
      `/me/agents/${bob.agent}/conversations/${hisSession}/schedule/${aliceSchedule}`,
      `/me/agents/${alice.agent}/conversations/${aliceSession}/schedule/${aliceSchedule}`,
    ]) {
      expect((await fetch(api(path), { method: 'DELETE', headers: auth(bob.token) })).status).toBe(404);
    }
  });

  it('nothing of hers changed: title, sharing, messages, schedule', async () => {
    const base = `/me/agents/${alice.agent}/conversations/${aliceSession}`;
    const list = (await (
      await fetch(api(`/me/agents/${alice.agent}/conversations`), { headers: auth(alice.token) })
    ).json()) as { conversaciones: { id: string; titulo: string | null }[] };
    expect(list.conversaciones).toEqual([expect.objectContaining({ id: aliceSession, titulo: null })]);
    expect(await (await fetch(api(`${base}/share`), { headers: auth(alice.token) })).json()).toEqual({
      compartida: false,
    });
    const thread = (await (await fetch(api(base), { headers: auth(alice.token) })).json()) as {
      messages: unknown[];
    };
    expect(thread.messages).toEqual([]);
    const schedule = (await (
      await fetch(api(`${base}/schedule`), { headers: auth(alice.token) })
    ).json()) as {
      programados: { id: string }[];
    };
    expect(schedule.programados.map((item) => item.id)).toEqual([aliceSchedule]);
  });
});

describe('another person’s library file', () => {
  it('GET is 404 and DELETE deletes nothing; the file is still hers, bytes and all', async () => {
    const read = await fetch(api(`/me/files/${aliceFile.id}`), { headers: auth(bob.token) });
    expect(read.status).toBe(404);
    expect(await read.json()).toMatchObject({ error: 'not_found' });
    const removed = await fetch(api(`/me/files/${aliceFile.id}`), {
      method: 'DELETE',
      headers: auth(bob.token),
    });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ deleted: false });
    const bobs = (await (await fetch(api('/me/files'), { headers: auth(bob.token) })).json()) as {
      archivos: unknown[];
    };
    expect(bobs.archivos).toEqual([]);
    const hers = await fetch(api(`/me/files/${aliceFile.id}`), { headers: auth(alice.token) });
    expect(hers.status).toBe(200);
    const { url } = (await hers.json()) as { url: string };
    expect(await (await fetch(url)).text()).toBe('alice only');
  });
});

describe('a sign-in that ends', () => {
  async function openStream(token: string): Promise<ReadableStreamDefaultReader<Uint8Array>> {
    const answer = await fetch(api(`/me/agents/${alice.agent}/conversations/${aliceSession}/events`), {
      headers: auth(token),
    });
    expect(answer.status).toBe(200);
    const reader = answer.body!.getReader();
    // The stream is live once a `done` arrives: the idle `done {reposo: true}`, or, when the schedule made
    // in beforeAll has come due (the expiry test moves the clock an hour), its turn's replay, then `done`.
    const decoder = new TextDecoder();
    let seen = '';
    while (!seen.includes('event: done')) {
      const next = await reader.read();
      expect(next.done).toBe(false);
      seen += decoder.decode(next.value, { stream: true });
    }
    return reader;
  }

  /**
   * Whether the server ends the stream within `ms`, and what was read meanwhile (said when an expectation
   * fails). The deadline is on the monotonic clock: a wall-clock step on a busy machine must not cut it short.
   */
  async function endsWithin(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    ms: number,
  ): Promise<{ ended: boolean; said: string }> {
    const started = performance.now();
    const decoder = new TextDecoder();
    let read = '';
    const said = (ended: boolean) =>
      `${ended ? 'ended' : 'still open'} after ${(performance.now() - started).toFixed(0)} ms of ${ms}; read: ${JSON.stringify(read.slice(-600))}`;
    for (;;) {
      const left = ms - (performance.now() - started);
      if (left <= 0) break;
      let timer: NodeJS.Timeout | undefined;
      const next = await Promise.race([
        reader.read(),
        new Promise<'open'>((resolve) => (timer = setTimeout(() => resolve('open'), left))),
      ]);
      clearTimeout(timer);
      if (next === 'open') break;
      if (next.done) return { ended: true, said: said(true) };
      read += decoder.decode(next.value, { stream: true });
    }
    await reader.cancel();
    return { ended: false, said: said(false) };
  }

  it('revoking the sign-in closes its open event stream, and the token no longer opens one', async () => {
    const reader = await openStream(alice.token);
    const revoked = await fetch(`${service.url}/oauth2/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token: alice.refresh, client_id: 'agentdesk-desktop' }),
    });
    expect(revoked.status).toBe(200);
    const end = await endsWithin(reader, 5000);
    expect(end.ended, end.said).toBe(true);
    // The subscription behind it is released too (no heartbeat left for a stream nobody reads).
    await expect.poll(() => service.context.conversations.heartbeats.size, { timeout: 3000 }).toBe(0);
    const again = await fetch(api(`/me/agents/${alice.agent}/conversations/${aliceSession}/events`), {
      headers: auth(alice.token),
    });
    expect(again.status).toBe(401);
    await again.body?.cancel();
  });

  it('an access token that expires closes the stream it opened (the client reconnects with a fresh one)', async () => {
    const fresh = await signIn(service, { email: 'alice@example.test' });
    const reader = await openStream(fresh.access_token);
    clock.advance(3600_000 + 1);
    const end = await endsWithin(reader, 5000);
    expect(end.ended, end.said).toBe(true);
  });

  it('a stream whose sign-in is still good stays open', async () => {
    const fresh = await signIn(service, { email: 'alice@example.test' });
    const reader = await openStream(fresh.access_token);
    const end = await endsWithin(reader, 2500);
    expect(end.ended, end.said).toBe(false);
  });
});
