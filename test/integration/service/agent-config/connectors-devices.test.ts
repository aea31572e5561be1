import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EMAIL } from '../../../support/local-service';
import { prepare } from '../../../../src/service/db/statement';
import { json, startHarness, type Harness } from './harness';

/** The hidden fields of the demo provider's consent form (a plain-HTTP stand-in for the browser). */
function consentFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    fields[match[1]!] = match[2]!
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'");
  }
  return fields;
}

describe('connectors over HTTP, with the built-in demo provider', { timeout: 60_000 }, () => {
  let h: Harness;
  let personId: string;
  const connectors = async () => (await json(await h.call('/api/v2/me/connectors'))).connectors;
  const start = async () =>
    (await json(await h.call('/api/v2/me/connectors/demo/start', { method: 'POST' }))).url as string;

  /** authorize → consent page → form post → redirect to the service's callback; returns that callback answer. */
  async function roundTrip(
    decision: 'allow' | 'deny',
  ): Promise<{ status: number; html: string; callback: string }> {
    const url = await start();
    const consent = await fetch(url);
    expect(consent.status).toBe(200);
    const fields = consentFields(await consent.text());
    const posted = await fetch(new URL('/authorize', url), {
      method: 'POST',
      body: new URLSearchParams({ ...fields, decision }),
      redirect: 'manual',
    });
    expect(posted.status).toBe(302);
    const callback = posted.headers.get('location')!;
    expect(callback.startsWith(`${h.service.url}/conectores/callback?`)).toBe(true);
    const landed = await fetch(callback);
    return { status: landed.status, html: await landed.text(), callback };
  }

  beforeAll(async () => {
    h = await startHarness({ config: { connectors: [{ id: 'acme', nombre: 'Acme CRM' }] } });
    personId = (await h.service.context.identity.persons.findByEmail(DEFAULT_EMAIL))!.id;
  });
  afterAll(() => h.close());

  it('GET lists the demo provider (available) and a configured one without credentials (not available)', async () => {
    expect(await connectors()).toEqual([
      { id: 'demo', nombre: 'Demo provider (local)', conectado: false, disponible: true },
      { id: 'acme', nombre: 'Acme CRM', conectado: false, disponible: false },
    ]);
    expect((await h.call('/api/v2/me/connectors/acme/start', { method: 'POST' })).status).toBe(409);
    expect((await h.call('/api/v2/me/connectors/nope/start', { method: 'POST' })).status).toBe(404);
  });

  it('start → consent → callback connects; the callback cannot be replayed', async () => {
    const url = new URL(await start());
    expect(url.origin).not.toBe(h.service.url); // the provider is another origin
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(`${h.service.url}/conectores/callback`);

    const { status, html, callback } = await roundTrip('allow');
    expect(status).toBe(200);
    expect(html).toContain('is connected');
    expect((await connectors())[0]).toMatchObject({ id: 'demo', conectado: true });
    const replay = await fetch(callback);
    expect(replay.status).toBe(400);
    expect((await connectors())[0].conectado).toBe(true);
  });

  it('DELETE disconnects and revokes the token at the provider', async () => {
    const token = (await h.service.context.agentConfig.connectors.accessToken(personId, 'demo'))!;
    const userinfo = () =>
      fetch(h.service.context.agentConfig.demoProvider.userinfoEndpoint, {
        headers: { Authorization: `Bearer ${token}` },
      });
    expect((await userinfo()).status).toBe(200);
    const res = await h.call('/api/v2/me/connectors/demo', { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect((await connectors())[0].conectado).toBe(false);
    expect((await userinfo()).status).toBe(401);
    expect((await h.call('/api/v2/me/connectors/nope', { method: 'DELETE' })).status).toBe(404);
  });

  it('a refusal at the provider leaves the connector disconnected', async () => {
    const { status, html } = await roundTrip('deny');
    expect(status).toBe(400);
    expect(html).toContain('access_denied');
    expect((await connectors())[0].conectado).toBe(false);
  });

  it('the provider tokens are sealed in the database, never plain', async () => {
    await roundTrip('allow');
    const token = (await h.service.context.agentConfig.connectors.accessToken(personId, 'demo'))!;
    const row = (await prepare(
      h.service.context.db,
      'SELECT access_token_sealed FROM connector_links WHERE person_id = ?',
    ).get(personId)) as { access_token_sealed: string };
    expect(row.access_token_sealed).not.toContain(token);
    expect(row.access_token_sealed.startsWith('v1.')).toBe(true);
  });
});

describe('devices over HTTP', { timeout: 60_000 }, () => {
  let h: Harness;
  const ios = 'a'.repeat(64);
  const android = 'fcm-token_ABC:' + 'x'.repeat(140);
  const count = async () =>
    (await prepare(h.service.context.db, 'SELECT COUNT(*) AS n FROM devices').get()) as { n: number };

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('POST validates and stores the token (hash only)', async () => {
    const res = await h.call('/api/v2/me/devices', {
      method: 'POST',
      json: { token: ios, plataforma: 'ios', entorno: 'sandbox' },
    });
    expect(res.status).toBe(200);
    expect(
      (
        await h.call('/api/v2/me/devices', {
          method: 'POST',
          json: { token: android, plataforma: 'android' },
        })
      ).status,
    ).toBe(200);
    // Registering the same device again does not duplicate it.
    await h.call('/api/v2/me/devices', { method: 'POST', json: { token: ios, plataforma: 'ios' } });
    expect((await count()).n).toBe(2);
    const rows = await prepare(h.service.context.db, 'SELECT * FROM devices').all();
    expect(JSON.stringify(rows)).not.toContain(ios);
    expect(JSON.stringify(rows)).not.toContain(android);
  });

  it('400 token_invalido for a missing or malformed token', async () => {
    const cases = [
      { plataforma: 'ios' },
      { token: '', plataforma: 'ios' },
      { token: 'not-hex-'.repeat(10), plataforma: 'ios' },
      { token: 'short', plataforma: 'android' },
      { token: 'has spaces in it '.repeat(4), plataforma: 'android' },
    ];
    for (const body of cases) {
      const res = await h.call('/api/v2/me/devices', { method: 'POST', json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).error).toBe('token_invalido');
    }
    const platform = await h.call('/api/v2/me/devices', {
      method: 'POST',
      json: { token: ios, plataforma: 'symbian' },
    });
    expect(platform.status).toBe(400);
  });

  it('DELETE identifies the device by its push token and answers 204', async () => {
    const byBody = await h.call('/api/v2/me/devices', { method: 'DELETE', json: { token: ios } });
    expect(byBody.status).toBe(204);
    expect((await count()).n).toBe(1);
    const byQuery = await h.call(`/api/v2/me/devices?token=${encodeURIComponent(android)}`, {
      method: 'DELETE',
    });
    expect(byQuery.status).toBe(204);
    expect((await count()).n).toBe(0);
    expect((await h.call('/api/v2/me/devices', { method: 'DELETE', json: { token: ios } })).status).toBe(204);
    expect((await h.call('/api/v2/me/devices', { method: 'DELETE' })).status).toBe(400);
  });
});
