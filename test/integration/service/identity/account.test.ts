import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storeRow, storeText } from '../../../support/store-query';
import { testStore } from '../../../support/test-store';
import {
  CookieBrowser,
  createAgentToken,
  DEFAULT_PASSWORD,
  ensurePerson,
  firstAgentId,
  hiddenField,
  signIn,
  startTestService,
  type TestService,
} from '../../../support/local-service';

// GET /api/v2/me/agents, DELETE /api/v2/me, the account page and its agent tokens, and what reaches the disk.
const services: TestService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.cleanup()));
});
async function start(): Promise<TestService> {
  const service = await startTestService();
  services.push(service);
  return service;
}

function get(service: TestService, path: string, token: string): Promise<Response> {
  return fetch(service.url + path, { headers: { Authorization: `Bearer ${token}` } });
}

describe('GET /api/v2/me/agents', () => {
  it('enrols a first machine agent on engine-b for an empty account, once', async () => {
    const service = await start();
    const { access_token } = await signIn(service);
    const [first, second] = await Promise.all([
      get(service, '/api/v2/me/agents', access_token),
      get(service, '/api/v2/me/agents', access_token),
    ]);
    const a = (await first!.json()) as { agentes: Record<string, unknown>[] };
    const b = (await second!.json()) as { agentes: Record<string, unknown>[] };
    expect(a.agentes).toHaveLength(1);
    expect(b.agentes).toEqual(a.agentes);
    const agente = a.agentes[0] as Record<string, unknown>;
    expect(Object.keys(agente).sort()).toEqual([
      'conexion',
      'id',
      'necesitaToken',
      'nombre',
      'origen',
      'protocolo',
    ]);
    expect(agente).toMatchObject({ origen: 'gs', protocolo: 'acp', conexion: null, necesitaToken: true });
    const record = await service.context.identity.agents.find(agente.id as string);
    expect(record?.engine).toBe('engine-b');
  });

  it('gives usuario.email only with the profile scope', async () => {
    const service = await start();
    const person = await ensurePerson(service);
    const withProfile = await signIn(service, { scopes: ['profile', 'agents:read'] });
    const without = await signIn(service, { scopes: ['agents:read'] });
    const a = (await (await get(service, '/api/v2/me/agents', withProfile.access_token)).json()) as {
      usuario: unknown;
    };
    const b = (await (await get(service, '/api/v2/me/agents', without.access_token)).json()) as {
      usuario: unknown;
    };
    expect(a.usuario).toEqual({ id: person.id, email: person.email });
    expect(b.usuario).toEqual({ id: person.id });
  });

  it('is JSON with Cache-Control: no-store', async () => {
    const service = await start();
    const { access_token } = await signIn(service);
    const response = await get(service, '/api/v2/me/agents', access_token);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('agent tokens on the account page', () => {
  it('are shown once, reach only their agent, list as a hint, and stop working when revoked', async () => {
    const service = await start();
    const { access_token } = await signIn(service);
    const agentId = await firstAgentId(service, access_token);
    const token = await createAgentToken(service, agentId);
    expect(token).toMatch(/^gat_[A-Za-z0-9_-]{43}$/);

    const listed = (await (await get(service, '/api/v2/me/agents', access_token)).json()) as {
      agentes: { necesitaToken: boolean }[];
    };
    expect(listed.agentes[0]?.necesitaToken).toBe(false);

    // Valid on its agent's config routes (the guard lets it through), not on person-level routes.
    expect([401, 403, 404]).not.toContain(
      (await get(service, `/api/v2/agents/${agentId}/mcp`, token)).status,
    );
    expect((await get(service, '/api/v2/me/agents', token)).status).toBe(401);

    const browser = new CookieBrowser(service.url);
    await browser.signInPage('person@example.test', DEFAULT_PASSWORD);
    const page = await (await browser.get('/account')).text();
    expect(page).not.toContain(token);
    expect(page).toContain(`gat_…${token.slice(-4)}`);
    // What a person reads: access keys and their age (the same in every time zone, which a page rendered
    // by a server cannot know), not "token", an engine id or an ISO timestamp; the exact moment is the tooltip.
    const visible = page
      .replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ')
      .replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ');
    expect(visible).toMatch(/Access key gat_…\S{4}, made just now/);
    expect(page).toMatch(/<time\s+datetime="[^"]+"\s+title="\w{3}, \d{2} \w{3} \d{4} [\d:]{8} UTC"/);
    expect(visible).toContain('Create an access key');
    expect(visible).not.toMatch(/\btokens?\b|engine-|\d{4}-\d{2}-\d{2}T/i);
    const action = /action="(\/account\/tokens\/[^"]+\/revoke)"/.exec(page)?.[1] as string;
    const revoked = await browser.post(action, { csrf: hiddenField(page, 'csrf') });
    expect(revoked.status).toBe(303);
    expect((await get(service, `/api/v2/agents/${agentId}/mcp`, token)).status).toBe(401);
  });

  it("cannot be made for someone else's agent, and the page escapes what it shows", async () => {
    const service = await start();
    const other = await signIn(service, { email: 'other@example.test' });
    const foreign = await firstAgentId(service, other.access_token);
    const person = await ensurePerson(service);
    await service.context.identity.agents.create(person.id, {
      name: '<script>alert(1)</script>',
      engine: 'house-lite',
      protocol: 'sse',
    });
    const browser = new CookieBrowser(service.url);
    await browser.signInPage('person@example.test', DEFAULT_PASSWORD);
    const page = await (await browser.get('/account')).text();
    expect(page).not.toContain('<script>alert(1)</script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const denied = await browser.post(`/account/agents/${foreign}/tokens`, {
      csrf: hiddenField(page, 'csrf'),
    });
    expect(denied.status).toBe(404);
    const forged = await browser.post(`/account/agents/${foreign}/tokens`, { csrf: 'forged' });
    expect(forged.status).toBe(400);
  });

  it('the account page asks to sign in first', async () => {
    const service = await start();
    const response = await fetch(`${service.url}/account`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/signin?next=%2Faccount');
  });
});

describe('first run', () => {
  it('creates the first account through the page, then only signs in', async () => {
    const service = await start();
    const browser = new CookieBrowser(service.url);
    const redirect = await browser.get('/signin');
    expect(redirect.headers.get('location')).toBe('/first-run?next=%2Faccount');
    const page = await (await browser.get('/first-run?next=%2Faccount')).text();
    const csrf = hiddenField(page, 'csrf');
    const mismatch = await browser.post('/first-run', {
      csrf,
      next: '/account',
      email: 'first@example.test',
      password: 'long enough 1',
      password2: 'long enough 2',
    });
    expect(mismatch.status).toBe(400);
    // The address the service gives this computer's own account is no one's to take.
    const reserved = await browser.post('/first-run', {
      csrf,
      next: '/account',
      email: 'first@this-computer',
      password: 'long enough 1',
      password2: 'long enough 1',
    });
    expect(reserved.status).toBe(400);
    expect(await reserved.text()).toContain('name this computer');
    const created = await browser.post('/first-run', {
      csrf,
      next: '/account',
      email: 'first@example.test',
      password: 'long enough 1',
      password2: 'long enough 1',
    });
    expect(created.status).toBe(303);
    expect(await (await browser.get('/account')).text()).toContain('first@example.test');
    const again = await new CookieBrowser(service.url).get('/first-run');
    expect(again.headers.get('location')).toBe('/signin?next=%2Faccount');
  });
});

describe('DELETE /api/v2/me', () => {
  it('deletes the account, its agents and tokens, and answers {borrada: true}', async () => {
    const service = await start();
    const tokens = await signIn(service);
    const agentId = await firstAgentId(service, tokens.access_token);
    const agentToken = await createAgentToken(service, agentId);
    const removed: string[][] = [];
    service.context.account.register({
      name: 'test',
      remove: (_person, agents) => void removed.push([...agents]),
    });

    const response = await fetch(`${service.url}/api/v2/me`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ borrada: true });
    expect(removed).toEqual([[agentId]]);
    expect(await service.context.identity.agents.find(agentId)).toBeNull();
    expect((await get(service, '/api/v2/me/agents', tokens.access_token)).status).toBe(401);
    expect((await get(service, `/api/v2/agents/${agentId}`, agentToken)).status).toBe(401);
    const refresh = await fetch(`${service.url}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: 'agentdesk-desktop',
      }),
    });
    expect(refresh.status).toBe(400);
  });

  it('answers 409 with an Error body when a blocker exists, and deletes nothing', async () => {
    const service = await start();
    const tokens = await signIn(service);
    const agentId = await firstAgentId(service, tokens.access_token);
    service.context.account.register({
      name: 'spaces',
      blocker: () => 'You own a space that still has members.',
    });
    const response = await fetch(`${service.url}/api/v2/me`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      error: 'bloqueado',
      detalle: 'You own a space that still has members.',
    });
    expect(await service.context.identity.agents.find(agentId)).not.toBeNull();
  });
});

describe('storage', () => {
  it('keeps no token in plain text on disk, uses WAL, and reopens its data folder', async () => {
    const service = await startTestService();
    const tokens = await signIn(service);
    const agentId = await firstAgentId(service, tokens.access_token);
    const agentToken = await createAgentToken(service, agentId);
    const secrets = [tokens.access_token, tokens.refresh_token, agentToken, DEFAULT_PASSWORD];
    const rows = await storeText(service);
    for (const secret of secrets) expect(rows).not.toContain(secret);
    if (testStore() === 'file') {
      expect(await storeRow(service, 'PRAGMA journal_mode')).toMatchObject({ journal_mode: 'wal' });
      const files = (await readdir(service.dataDir)).filter((name) => name.startsWith('service.db'));
      const bytes = Buffer.concat(
        await Promise.all(files.map((name) => readFile(join(service.dataDir, name)))),
      );
      for (const secret of secrets) expect(bytes.includes(Buffer.from(secret))).toBe(false);
    }
    await service.close();

    const reopened = await startTestService({ dataDir: service.dataDir });
    try {
      expect((await get(reopened, '/api/v2/me/agents', tokens.access_token)).status).toBe(200);
    } finally {
      await reopened.cleanup();
      await service.cleanup();
    }
  });
});
